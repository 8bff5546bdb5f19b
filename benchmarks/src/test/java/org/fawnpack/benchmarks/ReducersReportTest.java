package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReducersReportTest {
  @TempDir
  Path dir;

  @Test
  void section_bothPairs_speedUpAgainstOneReducer_andTheCountTablesLeftInPlace()
      throws Exception {
    ReducersReport report = new ReducersReport(BenchmarkOptions.parse(new String[] {"--only",
        "reducers"}), EmbeddedCluster.of(EmbeddedCluster.builder().baseDir(dir).spec()));
    report.reducersPerVcore = 7;
    report.words = family("wordcount2", 20, 10);
    report.logs = family("logcount2", 12, 16);
    String md = report.markdown();
    assertTrue(md.contains("one per vcore = 7 reducers"), md);
    // 20 s with one reducer, 10 s with one per vcore: 2.00x; 12 against 16: 0.75x.
    assertTrue(md.contains("| wordcount2, 1 reducer per vcore | 1 | 10.0 | 10.0 | 10.0 | 10.0 ± – "
        + "| 4 | 2.00x |"), md);
    assertTrue(md.contains("| logcount2, 1 reducer per vcore | 1 | 16.0 | 16.0 | 16.0 | 16.0 ± – "
        + "| 4 | 0.75x |"), md);

    Path file = dir.resolve("benchmarks.md");
    String count = "<!-- BEGIN count-benchmark (written by CountBenchmark) -->\nkept\n"
        + "<!-- END count-benchmark -->\n";
    Files.writeString(file, "# Benchmarks\n\n" + count);
    report.writeTo(file);
    String written = Files.readString(file);
    assertTrue(written.contains(count), written);
    assertTrue(written.contains("| wordcount2, 1 reducer per vcore |")
        && written.endsWith("<!-- END reducers-benchmark -->\n"), written);
    report.writeTo(file); // again: replaced, not appended twice
    String again = Files.readString(file);
    assertEquals(1, again.split("BEGIN reducers-benchmark", -1).length - 1, again);
    assertTrue(again.contains(count), again);
  }

  private static BenchmarkReport.Family family(String job, double one, double perVcore) {
    BenchmarkReport.Family family = new BenchmarkReport.Family(32, 16_000_000);
    family.measurements = new Measurements();
    family.measurements.add(job + ReducersReport.ONE, one, 4);
    family.measurements.add(job + ReducersReport.PER_VCORE, perVcore, 4);
    return family;
  }
}
