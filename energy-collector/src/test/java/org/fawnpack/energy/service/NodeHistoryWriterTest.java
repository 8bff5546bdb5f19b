package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's own history on a real (local) file system: every sample lands in exactly one
 * segment, in order, busy or idle, with what it booked to containers; nothing new, no segment;
 * old segments go, the newest stays. Checked by reading the files as plain text here.
 */
class NodeHistoryWriterTest {
  private static final long T0 = 1_700_000_000_000L;

  @TempDir
  Path dir;

  private NodeHistoryWriter writer(long keepMillis) {
    return new NodeHistoryWriter(new Configuration(), dir.toUri().toString(), "edison-3",
        "slave", 1000, 60_000, "model:model", () -> true, keepMillis);
  }

  @Test
  void everySample_inExactlyOneSegment_inOrder_withWhatContainersGot() throws IOException {
    PowerHistory history = new PowerHistory(100);
    NodeHistoryWriter writer = writer(3_600_000);
    List<long[]> expected = new ArrayList<>(); // end ms, node uJ, attributed uJ
    for (int i = 1; i <= 5; i++) { // idle: no application
      history.add(T0 + i * 1000L, 1.4, 1_400_000, false, Map.of());
      expected.add(new long[] {T0 + i * 1000L, 1_400_000, 0});
    }
    assertTrue(writer.roll(history, T0 + 5_500) != null);
    for (int i = 6; i <= 8; i++) { // busy: two applications share the interval
      history.add(T0 + i * 1000L, 1.68, 1_680_000, i == 7, Map.of("a", 1_000_000L, "b", 680_000L));
      expected.add(new long[] {T0 + i * 1000L, 1_680_000, 1_680_000});
    }
    assertTrue(writer.roll(history, T0 + 8_500) != null);
    assertNull(writer.roll(history, T0 + 9_000), "nothing new: no segment");

    List<Path> segments = segments();
    assertEquals(List.of("1700000001000.csv", "1700000006000.csv"),
        segments.stream().map(p -> p.getFileName().toString()).toList());
    List<long[]> read = new ArrayList<>();
    int gaps = 0;
    for (Path segment : segments) {
      List<String> lines = Files.readAllLines(segment, StandardCharsets.UTF_8);
      assertEquals("# fawn-energy node history v1", lines.get(0));
      assertEquals("# node=edison-3 role=slave interval_ms=1000 roll_ms=60000 meters=model:model"
          + " estimated=true",
          lines.get(1));
      for (String line : lines.subList(2, lines.size())) {
        String[] f = line.split(",");
        assertEquals("sample", f[0]);
        assertEquals(12, f.length, line);
        assertEquals("-1,-1,-1,-1,-1,-1", line.substring(line.indexOf(",", line.indexOf(",",
            line.indexOf(",", line.indexOf(",", line.indexOf(",", line.indexOf(",") + 1) + 1)
                + 1) + 1) + 1) + 1), "no utilisation sampled here: unknown, not 0");
        read.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[3]), Long.parseLong(f[4])});
        gaps += Integer.parseInt(f[5]);
      }
    }
    assertEquals(expected.size(), read.size());
    for (int i = 0; i < expected.size(); i++) {
      assertTrue(java.util.Arrays.equals(expected.get(i), read.get(i)), "sample " + i);
    }
    assertEquals(1, gaps);
  }

  @Test
  void oldSegmentsDeleted_theNewestKept() throws IOException {
    PowerHistory history = new PowerHistory(100);
    NodeHistoryWriter writer = writer(10_000);
    history.add(T0 + 1000, 1.4, 1_400_000, false, Map.of());
    writer.roll(history, T0 + 1000);
    history.add(T0 + 2000, 1.4, 1_400_000, false, Map.of());
    writer.roll(history, T0 + 2000);
    assertEquals(2, segments().size());
    writer.roll(history, T0 + 60_000); // nothing new; both are older than 10 s
    assertEquals(List.of("1700000002000.csv"),
        segments().stream().map(p -> p.getFileName().toString()).toList());
  }

  private List<Path> segments() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("nodes").resolve("edison-3"))) {
      return files.filter(p -> p.getFileName().toString().endsWith(".csv")).sorted().toList();
    }
  }
}
