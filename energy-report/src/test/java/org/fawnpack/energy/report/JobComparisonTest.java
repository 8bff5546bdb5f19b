package org.fawnpack.energy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.fawnpack.energy.report.JobHistoryClient.CounterValues;
import org.fawnpack.energy.report.JobHistoryClient.JobInfo;
import org.junit.jupiter.api.Test;

/**
 * The comparison's figures against the jobs' counters, computed here by hand: joules are
 * ENERGY_MILLIJOULES / 1000, work per joule the unit's counter over those joules, ratios over
 * the job's baseline twin's (wordcount2 over wordcount), never across kinds of job.
 */
class JobComparisonTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final String ENERGY = "org.fawnpack.energy.EnergyCounter";

  private static EnergyReportModel job(int n, String name, long seconds, long millijoules,
      int reduces, Map<String, Map<String, Long>> work) {
    Map<String, Map<String, Long>> groups = new java.util.LinkedHashMap<>(work);
    groups.put(ENERGY, Map.of("ENERGY_MILLIJOULES", millijoules, "TASKS_METERED", 2L));
    JobInfo info = new JobInfo("job_1700000000000_000" + n, name, "alice", "default",
        "SUCCEEDED", T0, T0, T0 + seconds * 1000, 2, 2, reduces, reduces);
    return EnergyReportModel.build(info, new CounterValues(groups), List.of(), "/fawn/energy",
        null);
  }

  private static Map<String, Map<String, Long>> records(long in, long out) {
    return Map.of(WorkMeasure.TASK, Map.of("MAP_INPUT_RECORDS", in, "MAP_OUTPUT_RECORDS", out));
  }

  private final EnergyReportModel wordcount = job(1, "wordcount", 20, 50_000, 1,
      records(100_000, 2_000_000));
  private final EnergyReportModel wordcount2 = job(2, "wordcount2", 5, 10_000, 1,
      records(100_000, 90_000));
  private final EnergyReportModel pi = job(3, "pi", 8, 16_000, 1, Map.of(WorkMeasure.PI,
      Map.of("SAMPLES", 80_000_000L), WorkMeasure.TASK, Map.of("MAP_INPUT_RECORDS", 4L)));
  private final EnergyReportModel teragen = job(4, "teragen", 10, 4_000, 0,
      records(2, 1_000_000));

  @Test
  void of_eachJobsWorkInItsOwnUnit_fromItsCounters() {
    JobComparison c = JobComparison.of(List.of(wordcount, wordcount2, pi, teragen));
    assertEquals(new WorkMeasure("input records", 100_000), c.rows().get(0).work());
    assertEquals(new WorkMeasure("points", 80_000_000), c.rows().get(2).work());
    assertEquals(new WorkMeasure("records written", 1_000_000), c.rows().get(3).work());
    assertEquals(100_000 / 50.0, c.rows().get(0).workPerJoule(), 1e-9);
    assertEquals(100_000 / 10.0, c.rows().get(1).workPerJoule(), 1e-9);
    assertEquals(80_000_000 / 16.0, c.rows().get(2).workPerJoule(), 1e-9);
  }

  @Test
  void text_eachTwinToItsBaseline_withSeparatorsAndFixedDecimals() {
    String text = EnergyReport.comparisonText(List.of(wordcount, wordcount2));
    String row = text.lines().filter(l -> l.startsWith("job_1700000000000_0002")).findFirst()
        .orElseThrow();
    // 5 s / 20 s, 10 J / 50 J, (100,000 / 10 J) / (100,000 / 50 J)
    assertTrue(row.contains("0.25x"), row);
    assertTrue(row.contains("0.20x"), row);
    assertTrue(row.contains("5.00x"), row);
    assertTrue(row.contains("10,000.0"), row); // records per joule
    assertTrue(row.contains("100,000"), row);
    assertTrue(row.contains("10.00"), row); // task joules
    assertEquals(List.of("base", "base", "base"), lastThree(text, "job_1700000000000_0001"));
  }

  @Test
  void pairs_eachTwinWithItsBaseline_neverAcrossKinds() {
    EnergyReportModel logcount = job(5, "logcount", 40, 80_000, 1, records(500_000, 10));
    EnergyReportModel logcount2 = job(6, "logcount2", 4, 8_000, 1, records(500_000, 10));
    EnergyReportModel wordcount2Again = job(7, "wordcount2", 10, 20_000, 1,
        records(100_000, 90_000));
    // The first job is pi: before pairing, every row was divided by pi's figures.
    JobComparison c = JobComparison.of(List.of(pi, wordcount, logcount, wordcount2, logcount2,
        wordcount2Again));
    List<JobComparison.Row> r = c.rows();
    assertEquals(null, c.baselineOf(r.get(0)), "pi has no twin");
    assertEquals(r.get(1), c.baselineOf(r.get(3)), "wordcount2 to wordcount");
    assertEquals(r.get(2), c.baselineOf(r.get(4)), "logcount2 to logcount");
    assertEquals(r.get(1), c.baselineOf(r.get(5)), "a second wordcount2 to wordcount too");
    // logcount2: (500,000 / 8 J) / (500,000 / 80 J) = 10x work per joule, 4 s / 40 s.
    assertEquals(10.0, c.ratioToBaseline(r.get(4), JobComparison.Row::workPerJoule), 1e-9);
    assertEquals(0.1, c.ratioToBaseline(r.get(4), JobComparison.Row::seconds), 1e-9);
    assertTrue(Double.isNaN(c.ratioToBaseline(r.get(0), JobComparison.Row::seconds)));
    String text = ComparisonText.render(c);
    assertEquals(List.of("-", "-", "-"), lastThree(text, "job_1700000000000_0003"));
    assertTrue(text.contains("each optimised job to its baseline twin"), text);
  }

  @Test
  void sameJobRunTwice_theSecondToTheFirst() {
    EnergyReportModel again = job(8, "pi", 4, 8_000, 1, Map.of(WorkMeasure.PI,
        Map.of("SAMPLES", 80_000_000L), WorkMeasure.TASK, Map.of("MAP_INPUT_RECORDS", 4L)));
    JobComparison c = JobComparison.of(List.of(pi, again));
    assertEquals(c.rows().get(0), c.baselineOf(c.rows().get(1)));
    assertEquals(0.5, c.ratioToBaseline(c.rows().get(1), JobComparison.Row::seconds), 1e-9);
  }

  @Test
  void text_mixedUnits_saysWorkPerJouleComparesWithinAUnit() {
    EnergyReportModel piAsWordcount2 = job(9, "wordcount2", 8, 16_000, 1, Map.of(WorkMeasure.PI,
        Map.of("SAMPLES", 80_000_000L), WorkMeasure.TASK, Map.of("MAP_INPUT_RECORDS", 4L)));
    assertTrue(EnergyReport.comparisonText(List.of(wordcount, piAsWordcount2))
        .contains("compare work/J only between jobs of one unit"));
    assertTrue(!EnergyReport.comparisonText(List.of(wordcount, pi))
        .contains("compare work/J only between jobs of one unit"), "no pair, no ratio");
  }

  @Test
  void html_barsScaledToTheLargestValue_labelledWithRatios() {
    String html = ComparisonHtml.render(JobComparison.of(List.of(wordcount, wordcount2)));
    assertTrue(html.contains("style=\"width:100.0%\""), "the larger joules bar is full width");
    assertTrue(html.contains("style=\"width:20.0%\""), "10 J against 50 J");
    assertTrue(html.contains("10.00 J (0.20x of wordcount)"), html);
    assertTrue(html.contains("10,000.0 (5.00x of wordcount)"), html);
    assertTrue(html.contains("50.00 J (baseline)"), html);
    assertTrue(html.startsWith("<!DOCTYPE html>") && !html.contains("<script"), html);
  }

  /** The ratio cells of a job's row: its last three columns. */
  private static List<String> lastThree(String text, String jobId) {
    String[] cells = text.lines().filter(l -> l.startsWith(jobId)).findFirst().orElseThrow()
        .trim().split(" +");
    return List.of(cells).subList(cells.length - 3, cells.length);
  }

  @Test
  void of_oneJob_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> JobComparison.of(List.of(wordcount)));
  }
}
