package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.fawnpack.energy.report.EnergyReportModel.NodeFigures;
import org.fawnpack.energy.report.JobHistoryClient.CounterValues;
import org.fawnpack.energy.report.JobHistoryClient.JobInfo;
import org.fawnpack.energy.report.JobHistoryClient.TaskInfo;
import org.junit.jupiter.api.Test;

/** The figures of {@link Fixtures}' job, computed by hand there. */
class EnergyReportModelTest {
  private static final double EPS = 1e-9;

  @Test
  void from_counters_figures() throws IOException {
    EnergyReportModel m = Fixtures.model(false, 0);
    assertEquals(100.0, m.seconds(), EPS);
    assertEquals(100_000, m.wallMillis());
    assertEquals(1500.0, m.taskJoules(), EPS);
    assertEquals(300.0, m.idleJoules(), EPS);
    assertEquals(0.2, m.idleShare(), EPS);
    assertEquals(2000.0, m.recordsPerJoule(), EPS);
    assertEquals(100_000.0, m.bytesPerJoule(), EPS);
    assertEquals(3, m.summary().tasksMetered());
    assertEquals(3, m.tasksAll());
    assertEquals(400, m.summary().samples());
    assertEquals(4, m.summary().gaps());
    assertEquals(0.01, m.counterGapShare(), EPS);
  }

  @Test
  void from_tasks_phases() throws IOException {
    EnergyReportModel m = Fixtures.model(false, 0);
    assertEquals(new EnergyReportModel.Phase(T0 + 2_000, T0 + 60_000), m.mapPhase());
    assertEquals(new EnergyReportModel.Phase(T0 + 55_000, T0 + 70_000), m.shufflePhase());
    assertEquals(new EnergyReportModel.Phase(T0 + 70_000, T0 + 98_000), m.reducePhase());
    assertNull(JobPhases.span(List.of(new TaskInfo("t", "MAP", "KILLED", 0, 0)), true));
  }

  @Test
  void from_historyFiles_figuresOverJobsWindow() throws IOException {
    EnergyReportModel m = Fixtures.model(false, 0);
    assertTrue(m.hasHistory());
    NodeFigures a = m.nodes().get(0);
    NodeFigures b = m.nodes().get(1);
    assertEquals("nodeA", a.history().node());
    assertEquals(10, a.samplesInWindow());
    assertEquals(1, a.gapSamplesInWindow());
    assertEquals(2000.0, a.nodeJoules(), EPS);
    assertEquals(95.0, a.coveredSeconds(), EPS); // the first inside sample covers T0..T0+5 s
    assertEquals(20.0, a.averageWatts(m.seconds()), EPS);
    assertEquals(520.0, a.appJoules(), EPS); // all rows: 10 x 50 J inside + 2 x 10 J outside
    assertEquals(60_000_000, a.amMicrojoules());
    assertEquals(10, b.samplesInWindow()); // T0 + 100 s = finish is inside
    assertEquals(3000.0, b.nodeJoules(), EPS);
    assertEquals(100.0, b.coveredSeconds(), EPS);
    assertEquals(30.0, b.averageWatts(m.seconds()), EPS);
    assertEquals(1000.0, b.appJoules(), EPS);

    assertEquals(5000.0, m.nodeJoules(), EPS);
    assertEquals(50.0, m.averageWatts(), EPS);
    assertEquals(1520.0, m.applicationJoules(), EPS);
    assertEquals(60.0, m.applicationMasterJoules(), EPS);
    assertEquals(20, m.historySamples());
    assertEquals(1, m.historyGapSamples());
    assertEquals(0.05, m.historyGapShare(), EPS);
    assertEquals(4, m.containersRecorded());
    assertFalse(m.estimated());
  }

  @Test
  void from_estimatedCountersOrHeaders_estimated() throws IOException {
    EnergyReportModel byCounter = Fixtures.model(false, 2);
    assertTrue(byCounter.estimated());
    assertEquals(List.of("2 task(s) with estimated power (TASKS_ESTIMATED)"),
        byCounter.estimatedReasons());
    EnergyReportModel byHeader = Fixtures.model(true, 0);
    assertTrue(byHeader.estimated());
    assertEquals(List.of("history file nodeA.csv says estimated=true"),
        byHeader.estimatedReasons());
  }

  @Test
  void from_noHistoryNorEnergy_figuresNotComputable() {
    JobInfo job = new JobInfo(Fixtures.JOB_ID, "j", "u", "q", "SUCCEEDED", 0, T0, T0 + 4_000, 1,
        1, 0, 0);
    CounterValues counters = new CounterValues(Map.of(EnergyReportModel.TASK_GROUP,
        Map.of("MAP_INPUT_RECORDS", 10L)));
    EnergyReportModel m = EnergyReportModel.build(job, counters, List.of(), "/fawn/energy/x",
        null);
    assertFalse(m.historyFound());
    assertFalse(m.hasHistory());
    assertEquals(4.0, m.seconds(), EPS);
    assertEquals(0.0, m.taskJoules(), EPS);
    assertTrue(Double.isNaN(m.recordsPerJoule()));
    assertTrue(Double.isNaN(m.bytesPerJoule()));
    assertTrue(Double.isNaN(m.idleShare()));
    assertTrue(Double.isNaN(m.nodeJoules()));
    assertTrue(Double.isNaN(m.averageWatts()));
    assertTrue(Double.isNaN(m.applicationJoules()));
    assertTrue(Double.isNaN(m.counterGapShare()));
    assertEquals(1, m.tasksAll());
    assertNull(m.mapPhase());
  }

  @Test
  void from_fawnInputBytesLarger_counted() {
    JobInfo job = new JobInfo(Fixtures.JOB_ID, "j", "u", "q", "SUCCEEDED", 0, T0, T0 + 10_000,
        1, 1, 0, 0);
    CounterValues counters = new CounterValues(Map.of(
        EnergyReportModel.ENERGY_GROUP, Map.of("ENERGY_MILLIJOULES", 2_000L),
        EnergyReportModel.FILE_INPUT_GROUP, Map.of("BYTES_READ", 0L),
        EnergyReportModel.FAWN_INPUT_GROUP, Map.of("BYTES_READ", 1000L)));
    EnergyReportModel m = EnergyReportModel.build(job, counters, List.of(), "d", List.of());
    assertEquals(500.0, m.bytesPerJoule(), EPS);
    assertTrue(m.historyFound());
    assertFalse(m.hasHistory()); // the directory exists but holds no file
  }

  @Test
  void from_unknownFinish_everySampleAndNoWallTime() throws IOException {
    JobInfo job = new JobInfo(Fixtures.JOB_ID, "j", "u", "q", "RUNNING", 0, T0, 0, -1, -1, -1,
        -1);
    EnergyReportModel m = EnergyReportModel.build(job, new CounterValues(Map.of()), List.of(),
        "d", List.of(Fixtures.parse(Fixtures.nodeA(false), "nodeA.csv")));
    assertTrue(Double.isNaN(m.seconds()));
    assertEquals(11, m.nodes().get(0).samplesInWindow()); // all but the one before the start
    assertTrue(Double.isNaN(m.averageWatts()));
  }
}
