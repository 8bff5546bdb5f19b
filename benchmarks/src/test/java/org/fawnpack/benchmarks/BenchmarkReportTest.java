package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class BenchmarkReportTest {

  @Test
  void familyTable_rows_meanAndSdBesideMedianMinMax() {
    BenchmarkReport.Family family = new BenchmarkReport.Family(200, 106_800_000);
    family.measurements = new Measurements();
    for (double seconds : new double[] {10, 12, 17}) {
      family.measurements.add(BenchmarkReport.STOCK, seconds, 200);
      family.measurements.add("wordcount2", seconds / 2, 7);
    }
    String table = BenchmarkReport.familyTable("Word count", family, BenchmarkReport.STOCK);
    assertTrue(table.contains("| median s | min s | max s | mean ± sd s |"), table);
    // mean 13, sd sqrt(13) = 3.606; halved: 6.5 and 1.803.
    assertTrue(table.contains("| stock WordCount | 3 | 12.0 | 10.0 | 17.0 | 13.0 ± 3.6 | 200 | "
        + "1.00x |"), table);
    assertTrue(table.contains("| wordcount2 | 3 | 6.0 | 5.0 | 8.5 | 6.5 ± 1.8 | 7 | 2.00x |"),
        table);
    assertSameColumnCount(table);
  }

  @Test
  void familyTable_oneRun_sdIsADash() {
    BenchmarkReport.Family family = new BenchmarkReport.Family(500, 104_200_000);
    family.measurements = new Measurements();
    family.measurements.add("logcount", 553.7, 500);
    String table = BenchmarkReport.familyTable("Log count", family, "logcount");
    assertTrue(table.contains("| logcount | 1 | 553.7 | 553.7 | 553.7 | 553.7 ± – | 500 | 1.00x |"),
        table);
    assertSameColumnCount(table);
  }

  @Test
  void familyTable_withCombinedStock_extraColumnStillAligned() {
    BenchmarkReport.Family family = new BenchmarkReport.Family(200, 106_800_000);
    family.measurements = new Measurements();
    family.measurements.add(BenchmarkReport.STOCK, 40, 200);
    family.measurements.add(BenchmarkReport.STOCK_COMBINED, 20, 8);
    family.measurements.add(BenchmarkReport.STOCK_COMBINED, 22, 8);
    assertSameColumnCount(BenchmarkReport.familyTable("Word count", family, BenchmarkReport.STOCK));
  }

  @Test
  void reference_threeCounts_medianAndMeanSd() {
    assertEquals("12.00 s (median of 3; mean ± sd 13.00 ± 3.61 s)",
        BenchmarkReport.reference(RoundStats.of(10, 12, 17)));
  }

  /** Every row of the markdown table has as many cells as its header. */
  static void assertSameColumnCount(String markdown) {
    List<String> rows = markdown.lines().filter(l -> l.startsWith("|")).toList();
    long header = cells(rows.get(0));
    for (String row : rows) {
      assertEquals(header, cells(row), row);
    }
  }

  private static long cells(String row) {
    return row.chars().filter(c -> c == '|').count();
  }
}
