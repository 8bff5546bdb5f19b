package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.ReportText.number;
import static org.fawnpack.energy.report.ReportText.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.fawnpack.energy.report.JobHistoryClient.CounterValues;
import org.fawnpack.energy.report.JobHistoryClient.JobInfo;
import org.junit.jupiter.api.Test;

class TextReportTest {
  private static final double EPS = 1e-9;

  @Test
  void print_figures_withUnits() throws IOException {
    String text = TextReport.render(Fixtures.model(false, 0));
    assertTrue(text.startsWith("FAWN energy report: " + Fixtures.JOB_ID + "\n"), text);
    assertEquals(Fixtures.JOB_ID, value(text, "job id"));
    assertEquals(Fixtures.APP_ID, value(text, "application id"));
    assertEquals(Fixtures.JOB_NAME, value(text, "name"));
    assertEquals("SUCCEEDED", value(text, "state"));
    assertEquals("2023-11-14T22:13:20Z", value(text, "started"));
    assertEquals(100.0, number(text, "wall time", "s"), EPS);
    assertEquals("2.000 s to 60.000 s", value(text, "map phase"));
    // r0's attempt: started 55 s, shuffle finished 70 s, done 98 s (Fixtures)
    assertEquals("55.000 s to 70.000 s", value(text, "shuffle phase"));
    assertEquals("70.000 s to 98.000 s", value(text, "reduce phase"));
    assertEquals(1500.0, number(text, "task energy", "J"), EPS);
    assertEquals(300.0, number(text, "idle share", "J"), EPS);
    assertTrue(value(text, "idle share").endsWith("(20.0 %)"));
    assertEquals(2000.0, number(text, "work/J", "input records/J"), EPS);
    assertEquals(100_000.0, number(text, "bytes/J", "B/J"), EPS);
    assertEquals(5000.0, number(text, "node energy", "J"), EPS);
    assertEquals(50.0, number(text, "average power", "W"), EPS);
    assertEquals(1520.0, number(text, "application energy", "J"), EPS);
    assertEquals(60.0, number(text, "ApplicationMaster", "J"), EPS);
    assertEquals("3 of 3", value(text, "tasks metered"));
    assertEquals("400 (4 with gaps, 1.0 %)", value(text, "task samples"));
    assertEquals("20 (1 with gaps, 5.0 %)", value(text, "history samples"));
    assertEquals("2 (4 containers recorded)", value(text, "nodes with history"));
    assertEquals("no (metered)", value(text, "estimated"));
    assertFalse(text.contains("ESTIMATED"), text);
    // Built without the nodes' own histories (ClusterEnergyTest has them): that line says so.
    assertEquals("n/a (the nodes' histories were not read)", value(text, "cluster energy"));
    assertFalse(text.replace(value(text, "cluster energy"), "").contains("n/a"), text);
  }

  @Test
  void print_nodes_oneLineEach() throws IOException {
    String text = TextReport.render(Fixtures.model(false, 0));
    String table = text.substring(text.indexOf("Per node (job window)\n"));
    List<String> lines = table.lines().toList();
    assertEquals(4, lines.size(), table); // title, column names, two nodes
    String[] a = lines.get(2).trim().split(" +");
    String[] b = lines.get(3).trim().split(" +");
    assertEquals(List.of("nodeA", "nodeA.csv", "10", "1", "95.000", "2000.000", "20.000",
        "520.000", "wall:snmp;cpu:sigar"), Arrays.asList(a));
    assertEquals(List.of("nodeB", "nodeB.csv", "10", "0", "100.000", "3000.000", "30.000",
        "1000.000", "wall:snmp;cpu:sigar"), Arrays.asList(b));
  }

  @Test
  void print_estimatedFigures_marked() throws IOException {
    String text = TextReport.render(Fixtures.model(true, 1));
    assertEquals("1 task(s) with estimated power (TASKS_ESTIMATED); history file nodeA.csv says"
        + " estimated=true", value(text, "ESTIMATED (model)"));
    assertEquals("ESTIMATED (model)", value(text, "estimated"));
    assertTrue(text.lines().anyMatch(l -> l.trim().startsWith("nodeA ")
        && l.endsWith("ESTIMATED (model)")), text);
  }

  @Test
  void print_piJob_countsItsPointsNotItsMapsRecords() {
    // pi's maps read one record each (their point ranges); its work is the points (PiCounter).
    JobInfo job = new JobInfo(Fixtures.JOB_ID, "pi", "alice", "default", "SUCCEEDED",
        Fixtures.T0 - 3000, Fixtures.T0, Fixtures.T0 + 10_000, 6, 6, 0, 0);
    CounterValues counters = new CounterValues(Map.of(
        "org.fawnpack.energy.EnergyCounter", Map.of("ENERGY_MILLIJOULES", 200_000L,
            "TASKS_METERED", 6L),
        "org.apache.hadoop.mapreduce.TaskCounter", Map.of("MAP_INPUT_RECORDS", 6L,
            "MAP_OUTPUT_RECORDS", 0L),
        "org.fawnpack.jobs.pi.PiCounter", Map.of("SAMPLES", 600_000_000L)));
    String text = TextReport.render(EnergyReportModel.build(job, counters, List.of(),
        "file:/tmp/none", null));

    assertEquals("3000000.000 points/J (600000000 points)", value(text, "work/J"));
    assertEquals("n/a (no input bytes counted)", value(text, "bytes/J"));
  }

  @Test
  void print_noHistoryFiles_saysWhereItLookedAndNa() {
    JobInfo job = new JobInfo(Fixtures.JOB_ID, null, null, null, "FAILED", 0, 0, 0, -1, -1, -1,
        -1);
    EnergyReportModel m = EnergyReportModel.build(job, new CounterValues(Map.of()), List.of(),
        "hdfs://nn:8020/fawn/energy/" + Fixtures.APP_ID, null);
    String text = TextReport.render(m);
    assertTrue(value(text, "history files").startsWith("not found in hdfs://nn:8020/fawn/energy/"
        + Fixtures.APP_ID + " "), text);
    for (String label : List.of("name", "user", "started", "wall time", "map phase",
        "shuffle phase", "reduce phase", "idle share", "node energy", "average power",
        "application energy", "ApplicationMaster", "history samples")) {
      assertEquals("n/a", value(text, label), label);
    }
    assertEquals("n/a (no task was metered)", value(text, "task energy"));
    assertEquals("n/a (0 input records)", value(text, "work/J"));
    assertEquals("n/a (no input bytes counted)", value(text, "bytes/J"));
    assertEquals("0 (0 with gaps, n/a)", value(text, "task samples"));
    assertFalse(text.contains("Per node"), text);
  }

  @Test
  void print_damagedFile_named() {
    JobInfo job = new JobInfo(Fixtures.JOB_ID, "j", "u", "q", "SUCCEEDED", 0, 1, 2, 1, 1, 0, 0);
    EnergyReportModel m = EnergyReportModel.build(job, new CounterValues(Map.of()), List.of(),
        "/h/" + Fixtures.APP_ID, null, "/h/x/n1.csv:7: damaged history line: gap must be 0 or 1");
    assertEquals("could not be read: /h/x/n1.csv:7: damaged history line: gap must be 0 or 1",
        value(TextReport.render(m), "history files"));
  }
}
