package org.fawnpack.benchmarks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class Md5BenchmarkTest {

  @Test
  void report_threeRounds_meanAndSdBesideEachMedian() {
    List<Md5Benchmark.JobRun> jobs = List.of(job(10, 4, 40, true), job(17, 6, 50, true),
        job(12, 5, 45, true));
    String md = report(jobs);
    // Jobs 10, 17, 12 s: the median job is the 12 s one; mean 13, sd sqrt(13) = 3.606.
    assertTrue(md.contains("| md5search job (2 maps) | 12.0 (10.0, 17.0, 12.0) | 13.0 ± 3.6 s |"),
        md);
    // Task CPU 4, 6, 5: mean 5, squared deviations 1 + 1 + 0 = 2, sd 1.
    assertTrue(md.contains("| md5search job, task CPU time | 5.0 CPU s | 5.0 ± 1.0 CPU s |"), md);
    // Loop 1.0, 1.2, 1.7: mean 1.3, squared deviations 0.09 + 0.01 + 0.16 = 0.26, sd 0.361.
    assertTrue(md.contains("| single-JVM loop | 1.20 (1.00, 1.20, 1.70) | 1.30 ± 0.36 s |"), md);
    assertTrue(md.contains("| single-JVM loop, thread CPU time | 1.00 CPU s | 1.00 ± 0.00 CPU s |"),
        md);
    // Joules 40, 50, 45: mean 45, sd 5. Work per joule 1800 / J = 45, 36, 40: mean 40.3,
    // squared deviations 21.8 + 18.8 + 0.1 = 40.7, sd 4.5.
    assertTrue(md.contains("45.0 J in the tasks, 40 transformations per joule (the median job"
        + " round); mean ± sd over the 3 metered rounds: 45.0 ± 5.0 J, 40 ± 5 transformations"
        + " per joule."), md);
    BenchmarkReportTest.assertSameColumnCount(md.substring(md.indexOf("| | wall s")));
  }

  @Test
  void report_anUnmeteredRound_leftOutOfTheEnergyFigures() {
    List<Md5Benchmark.JobRun> jobs = List.of(job(10, 4, 40, true), job(17, 6, 0, false),
        job(12, 5, 45, true));
    // Metered 40 and 45 J: mean 42.5, squared deviations 6.25 + 6.25, sd sqrt(12.5) = 3.54.
    assertTrue(report(jobs).contains("over the 2 metered rounds: 42.5 ± 3.5 J"), report(jobs));
  }

  @Test
  void report_oneRound_sdIsADash() {
    String md = report(List.of(job(12, 5, 45, true)), List.of(1.2), List.of(1.0));
    assertTrue(md.contains("| 12.0 (12.0) | 12.0 ± – s |"), md);
    assertTrue(md.contains("over the 1 metered round: 45.0 ± – J, 40 ± – transformations"), md);
  }

  private static String report(List<Md5Benchmark.JobRun> jobs) {
    return report(jobs, List.of(1.0, 1.2, 1.7), List.of(1.0, 1.0, 1.0));
  }

  private static String report(List<Md5Benchmark.JobRun> jobs, List<Double> loops,
      List<Double> loopCpu) {
    return Md5Benchmark.report(4, jobs.size(), "./fawn bench-md5 4", Instant.EPOCH, 1, 2, 2, 8,
        "00", jobs, loops, loopCpu);
  }

  private static Md5Benchmark.JobRun job(double seconds, double cpu, double joules,
      boolean metered) {
    return new Md5Benchmark.JobRun(seconds, 1800, 2, cpu, joules, metered, "timeline");
  }
}
