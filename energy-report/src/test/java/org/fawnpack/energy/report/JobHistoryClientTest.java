package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.JOB_ID;
import static org.fawnpack.energy.report.Fixtures.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.energy.report.JobHistoryClient.CounterValues;
import org.fawnpack.energy.report.JobHistoryClient.JobInfo;
import org.fawnpack.energy.report.JobHistoryClient.TaskInfo;
import org.junit.jupiter.api.Test;

class JobHistoryClientTest {

  @Test
  void get_overHttp_jobCountersAndTasks() throws IOException {
    try (FakeJobHistoryServer jhs = new FakeJobHistoryServer()) {
      jhs.job(JOB_ID, Fixtures.jobJson(), Fixtures.countersJson(), Fixtures.tasksJson());
      JobHistoryClient client = new JobHistoryClient(jhs.address());

      JobInfo job = client.job(JOB_ID);
      assertEquals(new JobInfo(JOB_ID, Fixtures.JOB_NAME, "alice", "default", "SUCCEEDED",
          T0 - 3000, T0, T0 + 100_000, 2, 2, 1, 1), job);

      CounterValues counters = client.counters(JOB_ID);
      assertEquals(1_500_000, counters.get("org.fawnpack.energy.EnergyCounter",
          "ENERGY_MILLIJOULES"));
      assertEquals(3, counters.get("org.fawnpack.energy.EnergyCounter", "TASKS_METERED"));
      assertEquals(3_000_000, counters.get("org.apache.hadoop.mapreduce.TaskCounter",
          "MAP_INPUT_RECORDS"));
      // this group's only counter came as a bare object (Jettison)
      assertEquals(150_000_000, counters.get(
          "org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter", "BYTES_READ"));
      assertEquals(0, counters.get("org.fawnpack.input.FawnInputCounter", "BYTES_READ"));
      assertFalse(counters.has("org.fawnpack.input.FawnInputCounter", "BYTES_READ"));

      List<TaskInfo> tasks = client.tasks(JOB_ID);
      assertEquals(3, tasks.size());
      assertEquals(new TaskInfo("task_1700000000000_0007_r_000000", "REDUCE", "SUCCEEDED",
          T0 + 55_000, T0 + 98_000), tasks.get(2));

      assertEquals(List.of("GET /ws/v1/history/mapreduce/jobs/" + JOB_ID,
          "GET /ws/v1/history/mapreduce/jobs/" + JOB_ID + "/counters",
          "GET /ws/v1/history/mapreduce/jobs/" + JOB_ID + "/tasks"), jhs.requests);
      assertTrue(jhs.acceptHeaders.stream().allMatch("application/json"::equals));
    }
  }

  @Test
  void get_singleAndEmptyListsAsJettisonWrites_read() throws IOException {
    // Captured from Jersey 2.46 + Jettison 1.5.4 marshalling Hadoop 3.5.0's TasksInfo /
    // JobCounterInfo / JobInfo (the JobHistory server's JAXB classes and JSON provider).
    String oneTask = "{\"tasks\":{\"task\":{\"startTime\":1000,\"finishTime\":2000,"
        + "\"elapsedTime\":1000,\"progress\":100,\"id\":\"task_1_0001_m_000000\","
        + "\"state\":\"SUCCEEDED\",\"type\":\"MAP\","
        + "\"successfulAttempt\":\"attempt_1_0001_m_000000_0\",\"status\":\"\"}}}";
    String noTasks = "{\"tasks\":\"\"}";
    String counters = "{\"jobCounters\":{\"id\":\"job_1_0001\",\"counterGroup\":{"
        + "\"counterGroupName\":\"org.fawnpack.energy.EnergyCounter\",\"counter\":{"
        + "\"name\":\"ENERGY_MILLIJOULES\",\"totalCounterValue\":11,\"mapCounterValue\":5,"
        + "\"reduceCounterValue\":6}}}}";
    String job = "{\"job\":{\"submitTime\":900,\"startTime\":1000,\"finishTime\":3000,"
        + "\"id\":\"job_1_0001\",\"name\":123,\"queue\":\"default\",\"user\":true,"
        + "\"state\":\"SUCCEEDED\",\"mapsTotal\":1,\"mapsCompleted\":1,\"reducesTotal\":0,"
        + "\"reducesCompleted\":0,\"uberized\":false,\"diagnostics\":\"\"}}";
    try (FakeJobHistoryServer jhs = new FakeJobHistoryServer()) {
      jhs.job("job_1_0001", job, counters, oneTask).serve("job_1_0002/tasks", noTasks);
      JobHistoryClient client = new JobHistoryClient("http://" + jhs.address() + "/");
      assertEquals(List.of(new TaskInfo("task_1_0001_m_000000", "MAP", "SUCCEEDED", 1000, 2000)),
          client.tasks("job_1_0001"));
      assertEquals(List.of(), client.tasks("job_1_0002"));
      assertEquals(11, client.counters("job_1_0001").get("org.fawnpack.energy.EnergyCounter",
          "ENERGY_MILLIJOULES"));
      JobInfo info = client.job("job_1_0001");
      assertEquals("123", info.name());
      assertEquals("true", info.user());
      assertEquals(2000, info.finishTime() - info.startTime());
    }
  }

  @Test
  void get_unknownJob_jobNotFoundNamingJobAndServer() throws IOException {
    try (FakeJobHistoryServer jhs = new FakeJobHistoryServer()) {
      JobHistoryClient client = new JobHistoryClient(jhs.address());
      JobNotFoundException e = assertThrows(JobNotFoundException.class,
          () -> client.job("job_1_0404"));
      assertEquals("job_1_0404", e.jobId());
      assertEquals(jhs.address(), e.historyServer());
      assertTrue(e.getMessage().contains("job job_1_0404 is not known to the JobHistory server at "
          + jhs.address()), e.getMessage());
      assertTrue(e.getMessage().contains("job, job_1_0404, is not found"), e.getMessage());
    }
  }

  @Test
  void get_serverErrorOrBadJson_ioError() throws IOException {
    try (FakeJobHistoryServer jhs = new FakeJobHistoryServer()) {
      jhs.fail("job_1_0500", 500, "{\"RemoteException\":{\"exception\":\"WebApplicationException\","
          + "\"message\":\"boom\"}}");
      jhs.serve("job_1_0600", "<html>not json</html>");
      jhs.serve("job_1_0700", "{\"jobs\":{}}");
      JobHistoryClient client = new JobHistoryClient(jhs.address());
      IOException e500 = assertThrows(IOException.class, () -> client.job("job_1_0500"));
      assertTrue(e500.getMessage().contains("HTTP 500: boom"), e500.getMessage());
      IOException bad = assertThrows(IOException.class, () -> client.job("job_1_0600"));
      assertTrue(bad.getMessage().contains("unreadable JSON"), bad.getMessage());
      IOException noJob = assertThrows(IOException.class, () -> client.job("job_1_0700"));
      assertTrue(noJob.getMessage().contains("no 'job' object"), noJob.getMessage());
    }
  }

  @Test
  void get_connectionRefused_namesServer() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    JobHistoryClient client = new JobHistoryClient("127.0.0.1:" + port);
    IOException e = assertThrows(IOException.class, () -> client.job(JOB_ID));
    assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
  }

  @Test
  void parse_addressesAndIds_normalised() {
    Configuration conf = new Configuration(false);
    assertEquals("0.0.0.0:19888", JobHistoryClient.addressFromConf(conf));
    conf.set(JobHistoryClient.WEBAPP_ADDRESS, " jhs.example:19888 ");
    assertEquals("jhs.example:19888", JobHistoryClient.addressFromConf(conf));
    assertEquals("jhs.example:19888", JobHistoryClient.fromConf(conf).address());
    conf.set(JobHistoryClient.HTTP_POLICY, "HTTPS_ONLY");
    assertEquals("https://0.0.0.0:19890", JobHistoryClient.addressFromConf(conf));

    String local = JobHistoryClient.localHostName();
    assertEquals(local + ":19888", new JobHistoryClient("0.0.0.0:19888").address());
    assertEquals("https://" + local + ":19890",
        new JobHistoryClient("https://0.0.0.0:19890").address());
    assertThrows(IllegalArgumentException.class, () -> new JobHistoryClient("host:1/path"));

    assertTrue(JobHistoryClient.isJobId("job_1700000000000_0007"));
    assertFalse(JobHistoryClient.isJobId("application_1700000000000_0007"));
    assertFalse(JobHistoryClient.isJobId("job_1700000000000_0007/../x"));
    assertEquals("application_1700000000000_12345",
        JobHistoryClient.applicationId("job_1700000000000_12345"));
  }
}
