package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.APP_ID;
import static org.fawnpack.energy.report.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryFileReaderTest {
  @TempDir
  Path tmp;

  @Test
  void read_collectorsFormat_parsed() throws IOException {
    Path file = Files.createDirectories(tmp.resolve(APP_ID)).resolve("nodeA.csv");
    Files.writeString(file, Fixtures.nodeA(true), StandardCharsets.UTF_8);
    NodeHistory h = HistoryFileReader.read(
        org.apache.hadoop.fs.FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(file.toUri()));
    assertEquals("nodeA.csv", h.file());
    assertEquals("nodeA", h.node());
    assertEquals(APP_ID, h.applicationId());
    assertEquals(10_000, h.intervalMillis());
    assertEquals("wall:snmp;cpu:sigar", h.meters());
    assertTrue(h.estimated());
    assertEquals(12, h.samples().size());
    NodeHistory.Sample first = h.samples().get(0);
    assertEquals(new NodeHistory.Sample(T0 - 5_000, 12.5, 125_000_000, 10_000_000, false), first);
    assertTrue(h.samples().get(5).gap()); // ends at T0 + 45 s
    assertEquals(2, h.containers().size());
    NodeHistory.Container am = h.containers().get(0);
    assertEquals("container_1700000000000_0007_01_000001", am.id());
    assertTrue(am.isApplicationMaster());
    assertEquals(60_000_000, am.energyMicrojoules());
    assertEquals(12_000_000, am.idleMicrojoules());
    assertEquals(1024, am.memoryMb());
    assertFalse(am.estimated());
  }

  @Test
  void read_crLfBlankLinesAndComments_tolerated() throws IOException {
    String text = (HistoryFileReader.MAGIC + "\n# written by a test\n# node=n1 application=a"
        + " interval_ms=500 meters=none estimated=false future=1\n\nsample,1000,5.5,5500000,0,0\n"
        + "container,c1,TASK,2,2048,900,-1,1000,10,3,1,true\n").replace("\n", "\r\n");
    NodeHistory h = Fixtures.parse(text, "n1-2.csv");
    assertEquals("n1", h.node());
    assertEquals(500, h.intervalMillis());
    assertEquals(1, h.samples().size());
    assertEquals(-1, h.containers().get(0).stopMillis());
    assertTrue(h.containers().get(0).estimated());
  }

  @Test
  void read_noNodeName_fallsBackToFileName() throws IOException {
    NodeHistory h = Fixtures.parse(HistoryFileReader.MAGIC + "\nsample,1,1.0,1,0,0\n",
        "host7-2.csv");
    assertEquals("host7-2", h.node());
    assertEquals(0, h.intervalMillis());
    assertFalse(h.estimated());
  }

  @Test
  void read_damagedLine_namesFileAndLine() {
    String head = Fixtures.header("n1", false); // lines 1 and 2
    assertDamaged(head + "sample,1000,5.0,5000000,0\n", 3, "6 were expected");
    assertDamaged(head + "sample,1000,5.0,5000000,0,0\nsample,2000,x,5000000,0,0\n", 4,
        "watts is not a number");
    assertDamaged(head + "sample,1000,5.0,5000000,0,2\n", 3, "gap must be 0 or 1");
    assertDamaged(head + "sample,1000,NaN,5000000,0,0\n", 3, "watts is not a number");
    assertDamaged(head + "sample,10x00,5.0,5000000,0,0\n", 3, "end ms is not an integer");
    assertDamaged(head + "sample,1000,5.0,5000000,0,0\nsample,2000,5.0,50", 4, "fields");
    assertDamaged(head + "container,c1,TASK,1,1024,0,-1,5,1,1,0,maybe\n", 3,
        "estimated must be true or false");
    assertDamaged(head + "container,c1,TASK,1,1024,0,-1,5,1,1,0\n", 3, "12 were expected");
    assertDamaged(head + "samples,1000,5.0,5000000,0,0\n", 3, "unknown record 'samples'");
    assertDamaged(head + "\u0000\u0000\u0000\n", 3, "unknown record");
    assertDamaged(HistoryFileReader.MAGIC + "\n# node=n1 interval_ms=ten\n", 2,
        "interval_ms is not an integer");
    assertDamaged("node,watts\n1,2\n", 1, "not a fawn-energy history v1 file");
  }

  @Test
  void read_emptyFile_error() {
    IOException e = assertThrows(IOException.class, () -> Fixtures.parse("", "empty.csv"));
    assertTrue(e.getMessage().contains("/test/empty.csv"), e.getMessage());
  }

  private static void assertDamaged(String content, int line, String why) {
    IOException e = assertThrows(IOException.class, () -> Fixtures.parse(content, "n1.csv"),
        content);
    assertTrue(e.getMessage().startsWith("/test/n1.csv:" + line + ": damaged history line"),
        e.getMessage());
    assertTrue(e.getMessage().contains(why), e.getMessage());
  }

  @Test
  void readApplication_everyCsvInNameOrder() throws IOException {
    Path app = Fixtures.writeHistory(tmp, false);
    Files.writeString(app.resolve("notes.txt"), "not a history file");
    Files.writeString(app.resolve("nodeA-2.csv"), Fixtures.header("nodeA", false));
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path dir =
        HistoryFileReader.applicationDir(conf, tmp.toUri().toString(), APP_ID);
    Optional<List<NodeHistory>> read = HistoryFileReader.readApplication(conf, dir);
    assertTrue(read.isPresent());
    assertEquals(List.of("nodeA-2.csv", "nodeA.csv", "nodeB.csv"),
        read.get().stream().map(NodeHistory::file).toList());
    assertEquals(List.of("nodeA", "nodeA", "nodeB"),
        read.get().stream().map(NodeHistory::node).toList());
  }

  @Test
  void readApplication_missingDirectory_empty() throws IOException {
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path dir =
        HistoryFileReader.applicationDir(conf, tmp.toUri().toString(), APP_ID);
    assertTrue(HistoryFileReader.readApplication(conf, dir).isEmpty());
  }

  @Test
  void readApplication_damagedFile_wholeReadFails() throws IOException {
    Path app = Fixtures.writeHistory(tmp, false);
    Files.writeString(app.resolve("nodeC.csv"), Fixtures.header("nodeC", false)
        + "sample,1000,5.0,5000000,0,0\nsample,2000,5.0\n");
    Configuration conf = new Configuration();
    org.apache.hadoop.fs.Path dir =
        HistoryFileReader.applicationDir(conf, tmp.toUri().toString(), APP_ID);
    IOException e = assertThrows(IOException.class,
        () -> HistoryFileReader.readApplication(conf, dir));
    assertTrue(e.getMessage().contains("nodeC.csv:4: damaged history line"), e.getMessage());
  }
}
