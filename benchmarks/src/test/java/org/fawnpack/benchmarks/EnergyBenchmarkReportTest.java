package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnergyBenchmarkReportTest {

  private static final EnergyBenchmarkReport.Context CONTEXT = new EnergyBenchmarkReport.Context(
      ZonedDateTime.parse("2026-11-29T12:00:00Z"), "./fawn bench-energy", "test machine", 1, 2,
      60);

  @TempDir
  Path dir;

  @Test
  void overhead_threeRounds_meanAndSdOfTimesPairsAndJoules() throws Exception {
    Measurements times = new Measurements();
    for (double seconds : new double[] {10, 12, 17}) {
      times.add(EnergyBenchmarkReport.METERED, seconds, 8);
      times.add(EnergyBenchmarkReport.UNMETERED, 20, 8);
    }
    String md = report().overhead(overhead(times, List.of(2.0, -1.0, 5.0),
        List.of(45.0, 46.0, 50.0)), CONTEXT);
    // Times 10, 12, 17: mean 13, sd sqrt(13) = 3.606; spread 7 / 12 = 58.3 %.
    assertTrue(md.contains("| median s | min s | max s | mean ± sd s |"), md);
    assertTrue(md.contains("| metered | 3 | 12.00 | 10.00 | 17.00 | 13.00 ± 3.61 | 58.3 % |"),
        md);
    assertTrue(md.contains("| unmetered | 3 | 20.00 | 20.00 | 20.00 | 20.00 ± 0.00 | 0.0 % |"),
        md);
    // Paired +2, -1, +5: mean 2, squared deviations 0 + 9 + 9 = 18, sd sqrt(9) = 3.
    assertTrue(md.contains("(median +2.0 %, mean ± sd 2.0 ± 3.0 %)"), md);
    // Joules 45, 46, 50: median 46, mean 47, squared deviations 4 + 1 + 9 = 14, sd sqrt(7).
    assertTrue(md.contains("46.0 J in tasks (median of 3 metered runs, mean ± sd 47.0 ± 2.6 J;"),
        md);
    BenchmarkReportTest.assertSameColumnCount(md.substring(md.indexOf("| variant |")));
  }

  @Test
  void overhead_oneRound_sdIsADash() throws Exception {
    Measurements times = new Measurements();
    times.add(EnergyBenchmarkReport.METERED, 21.6, 8);
    times.add(EnergyBenchmarkReport.UNMETERED, 21.2, 8);
    String md = report().overhead(overhead(times, List.of(1.9), List.of(45.8)), CONTEXT);
    assertTrue(md.contains("| metered | 1 | 21.60 | 21.60 | 21.60 | 21.60 ± – |"), md);
    assertTrue(md.contains("mean ± sd 1.9 ± – %"), md);
    assertTrue(md.contains("45.8 J in tasks (median of 1 metered run, mean ± sd 45.8 ± – J;"),
        md);
  }

  private EnergyBenchmarkReport report() throws Exception {
    return new EnergyBenchmarkReport(dir.resolve("benchmarks.md"));
  }

  private static EnergyBenchmarkReport.Overhead overhead(Measurements times,
      List<Double> pairedPercent, List<Double> joules) {
    return new EnergyBenchmarkReport.Overhead(4, 2, 1024, 64, 34_200_000, times,
        List.of("on 10.0", "off 20.0"), pairedPercent, joules, 8, 8, 21.4,
        List.of(1.0, 2.0, 3.0));
  }
}
