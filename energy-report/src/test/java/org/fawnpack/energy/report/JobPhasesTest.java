package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.JOB_ID;
import static org.fawnpack.energy.report.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import org.fawnpack.energy.report.EnergyReportModel.Phase;
import org.fawnpack.energy.report.JobHistoryClient.TaskInfo;
import org.junit.jupiter.api.Test;

/** The map, shuffle and reduce phases from a JobHistory server (ShuffleJob's, by hand). */
class JobPhasesTest {
  private static final String JOBS = FakeJobHistoryServer.JOBS + JOB_ID;

  @Test
  void reduceAttempts_overHttp_theFieldsServed() throws IOException {
    try (FakeJobHistoryServer jhs = ShuffleJob.serve(new FakeJobHistoryServer())) {
      JobHistoryClient client = new JobHistoryClient(jhs.address());
      assertEquals(List.of(
          new ReduceAttempt("attempt_1700000000000_0007_r_000000_0", "FAILED", T0 + 30_000,
              T0 + 45_000, -1, -1),
          new ReduceAttempt("attempt_1700000000000_0007_r_000000_1", "SUCCEEDED", T0 + 46_000,
              T0 + 110_000, T0 + 66_000, T0 + 68_000)),
          client.reduceAttempts(JOB_ID, ShuffleJob.R0));
      List<ReduceAttempt> r1 = client.reduceAttempts(JOB_ID, ShuffleJob.R1);
      assertEquals(T0 + 62_500, r1.get(0).shuffleFinishTime());
      assertEquals(T0 + 63_000, r1.get(0).mergeFinishTime());
      assertEquals("KILLED", r1.get(1).state());
      assertEquals(List.of("GET " + JOBS + "/tasks/" + ShuffleJob.R0 + "/attempts",
          "GET " + JOBS + "/tasks/" + ShuffleJob.R1 + "/attempts"), jhs.requests);
      assertThrows(IllegalArgumentException.class,
          () -> client.reduceAttempts(JOB_ID, "task_1700000000000_0007_m_000000"));
    }
  }

  @Test
  void reduceAttempts_jettisonShapes_oneBareAndNoneEmpty() throws IOException {
    String one = Fixtures.attemptsJson(Fixtures.reduceAttempt("attempt_1_0001_r_000000_0",
        "SUCCEEDED", 1000, 9000, 5000, 5100));
    try (FakeJobHistoryServer jhs = new FakeJobHistoryServer()) {
      jhs.attempts("job_1_0001", "task_1_0001_r_000000", one)
          .attempts("job_1_0001", "task_1_0001_r_000001", Fixtures.attemptsJson());
      JobHistoryClient client = new JobHistoryClient(jhs.address());
      assertEquals(List.of(new ReduceAttempt("attempt_1_0001_r_000000_0", "SUCCEEDED", 1000,
          9000, 5000, 5100)), client.reduceAttempts("job_1_0001", "task_1_0001_r_000000"));
      assertEquals(List.of(), client.reduceAttempts("job_1_0001", "task_1_0001_r_000001"));
    }
  }

  @Test
  void read_mapsShuffleAndReduce_oneRequestPerReduceTask() throws IOException {
    try (FakeJobHistoryServer jhs = ShuffleJob.serve(new FakeJobHistoryServer())) {
      JobHistoryClient client = new JobHistoryClient(jhs.address());
      List<TaskInfo> tasks = client.tasks(JOB_ID);
      jhs.requests.clear();
      JobPhases phases = JobPhases.read(client, JOB_ID, tasks);
      assertEquals(phase(ShuffleJob.MAP), phases.map());
      assertEquals(phase(ShuffleJob.SHUFFLE), phases.shuffle(),
          "r0's failed attempt's start to r0's successful shuffle; the killed 79 s not counted");
      assertEquals(phase(ShuffleJob.REDUCE), phases.reduce());
      assertNull(phases.shuffleProblem());
      assertEquals(2, jhs.requests.size(), "one request per reduce task, none for maps: "
          + jhs.requests);
    }
  }

  @Test
  void read_noReduces_noBandsAndNothingAsked() throws IOException {
    try (FakeJobHistoryServer jhs = new FakeJobHistoryServer()) {
      List<TaskInfo> maps = List.of(new TaskInfo("task_1_0001_m_000000", "MAP", "SUCCEEDED",
          T0 + 1_000, T0 + 9_000));
      JobPhases phases = JobPhases.read(new JobHistoryClient(jhs.address()), JOB_ID, maps);
      assertEquals(new JobPhases(new Phase(T0 + 1_000, T0 + 9_000), null, null, null), phases);
      assertEquals(List.of(), jhs.requests);
    }
  }

  @Test
  void read_attemptsNotServed_reduceIsTheWholeReducePhase_andSaysWhy() throws IOException {
    try (FakeJobHistoryServer jhs = new FakeJobHistoryServer()) {
      jhs.job(JOB_ID, ShuffleJob.jobJson(), ShuffleJob.countersJson(), ShuffleJob.tasksJson())
          .attempts(JOB_ID, ShuffleJob.R0, ShuffleJob.r0AttemptsJson()); // r1's: 404
      JobHistoryClient client = new JobHistoryClient(jhs.address());
      JobPhases phases = JobPhases.read(client, JOB_ID, client.tasks(JOB_ID));
      assertNull(phases.shuffle(), "half the attempts would give a wrong shuffle end");
      assertEquals(new Phase(T0 + 30_000, T0 + 110_000), phases.reduce(), "r0 and r1's span");
      assertEquals("the attempts of " + ShuffleJob.R1 + " could not be read: the JobHistory"
          + " server at " + jhs.address() + " answered HTTP 404", phases.shuffleProblem());
    }
  }

  @Test
  void of_noSuccessfulAttemptShuffled_reduceIsTheWholeReducePhase() {
    List<TaskInfo> tasks = List.of(new TaskInfo(ShuffleJob.R0, "REDUCE", "FAILED", T0 + 5_000,
        T0 + 9_000));
    JobPhases phases = JobPhases.of(tasks, List.of(new ReduceAttempt("a", "FAILED",
        T0 + 5_000, T0 + 9_000, -1, -1), new ReduceAttempt("b", "KILLED", T0 + 6_000,
        T0 + 8_000, T0 + 7_000, -1)));
    assertNull(phases.shuffle());
    assertEquals(new Phase(T0 + 5_000, T0 + 9_000), phases.reduce());
    assertEquals("no successful reduce attempt has a shuffle finish time",
        phases.shuffleProblem());
  }

  private static Phase phase(double[] seconds) {
    return new Phase(T0 + Math.round(seconds[0] * 1000), T0 + Math.round(seconds[1] * 1000));
  }
}
