package org.fawnpack.benchmarks.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** YCSB's text export, as YCSB 0.17.0 writes it, read back figure by figure. */
class YcsbRunTest {

  @Test
  void parse_ofAnExport_givesItsFigures() throws IOException {
    YcsbRun.Result r = YcsbRun.parse(List.of(
        "[OVERALL], RunTime(ms), 2000",
        "[OVERALL], Throughput(ops/sec), 1500.5",
        "[TOTAL_GCS_PS_Scavenge], Count, 3",
        "[READ], Operations, 2000",
        "[READ], 99thPercentileLatency(us), 812",
        "[READ], Return=OK, 1990",
        "[READ], Return=NOT_FOUND, 10",
        "[UPDATE], Operations, 1001",
        "[UPDATE], Return=OK, 1000",
        "[UPDATE], Return=ERROR, 1",
        "[CLEANUP], MinLatency(us), 1"));
    assertEquals(2.0, r.seconds());
    assertEquals(1500.5, r.opsPerSecond());
    assertEquals(812, r.get("READ", "99thPercentileLatency(us)"));
    assertEquals(995, r.okPerSecond("READ"));
    assertEquals(11, r.notOk());
    assertEquals(0, r.get("INSERT", "Operations"));
  }

  @Test
  void clientCpu_fromTheLineYcsbMainPrints_orNaNWithout(@TempDir Path dir) throws IOException {
    Path log = dir.resolve("run.log");
    Files.write(log, List.of("YCSB Client 0.17.0", "[OVERALL], RunTime(ms), 2000",
        YcsbMain.CPU_LINE + "2500000000"));
    assertEquals(2.5, YcsbRun.clientCpuSeconds(log));
    Files.write(log, List.of("YCSB Client 0.17.0"));
    assertTrue(Double.isNaN(YcsbRun.clientCpuSeconds(log)));
  }

  @Test
  void parse_withoutARunTime_isRefused() {
    assertThrows(IOException.class, () -> YcsbRun.parse(List.of("[READ], Operations, 5")));
  }
}
