package org.fawnpack.energy;

import static org.fawnpack.energy.EnergyCounter.ENERGY_MILLIJOULES;
import static org.fawnpack.energy.EnergyCounter.IDLE_SHARE_MILLIJOULES;
import static org.fawnpack.energy.EnergyCounter.METER_GAPS;
import static org.fawnpack.energy.EnergyCounter.SAMPLES;
import static org.fawnpack.energy.EnergyCounter.TASKS_ESTIMATED;
import static org.fawnpack.energy.EnergyCounter.TASKS_METERED;
import static org.fawnpack.energy.EnergyCounter.TASKS_UNMETERED;
import static org.fawnpack.energy.TaskContexts.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.commons.codec.binary.Base64;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.counters.Limits;
import org.fawnpack.energy.TaskContexts.CountersReporter;
import org.junit.jupiter.api.Test;

class TaskEnergyReporterTest {
  private static final int TIMEOUT_MS = 300;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setInt(TaskEnergyReporter.CLIENT_TIMEOUT_KEY, TIMEOUT_MS);
    conf.setInt(EnergyKeys.CLIENT_RESTART_WAIT_MS.name(), 0);
    return conf;
  }

  /** One task's report through a real task context; returns the task's counters. */
  private static Counters report(Map<String, String> environment, TaskType type, int task) {
    CountersReporter reporter = new CountersReporter();
    new TaskEnergyReporter(environment).report(TaskContexts.context(conf(),
        TaskContexts.attempt(type, task, 0), reporter));
    return reporter.counters;
  }

  private static Counters report(Map<String, String> environment) {
    return report(environment, TaskType.MAP, 0);
  }

  private static void assertUnmetered(Counters counters) {
    assertEquals(1, value(counters, TASKS_UNMETERED), "TASKS_UNMETERED");
    assertEquals(0, value(counters, TASKS_METERED), "TASKS_METERED");
    assertEquals(0, value(counters, ENERGY_MILLIJOULES), "ENERGY_MILLIJOULES");
    assertEquals(0, value(counters, SAMPLES), "SAMPLES");
  }

  @Test
  void report_collectorAnswers_figuresAddedToCounters() throws IOException {
    String container = TaskContexts.newContainerId();
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=1234499 idle_uj=400500 samples=12 gaps=1 estimated=false")) {
      Counters counters = report(collector.environment(container));

      assertEquals(List.of("ENERGY " + container), collector.requests());
      assertEquals(1234, value(counters, ENERGY_MILLIJOULES)); // 1234.499 mJ
      assertEquals(401, value(counters, IDLE_SHARE_MILLIJOULES)); // 400.5 mJ, half up
      assertEquals(12, value(counters, SAMPLES));
      assertEquals(1, value(counters, METER_GAPS));
      assertEquals(1, value(counters, TASKS_METERED));
      assertEquals(0, value(counters, TASKS_UNMETERED));
      assertEquals(0, value(counters, TASKS_ESTIMATED));
    }
  }

  @Test
  void report_microjoules_roundedToNearestMillijoule() throws IOException {
    long[][] microToMilli = {{0, 0}, {499, 0}, {500, 1}, {1499, 1}, {1500, 2}, {2_000_499, 2000},
        {9_999_999_500L, 10_000_000}};
    for (long[] pair : microToMilli) {
      try (FakeCollector collector = new FakeCollector("OK energy_uj=" + pair[0]
          + " idle_uj=0 samples=1 gaps=0 estimated=false")) {
        Counters counters = report(collector.environment(TaskContexts.newContainerId()));
        assertEquals(pair[1], value(counters, ENERGY_MILLIJOULES), pair[0] + " µJ");
        assertEquals(1, value(counters, TASKS_METERED));
      }
    }
  }

  @Test
  void report_estimatedPower_countedAsEstimated() throws IOException {
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=2000000 idle_uj=500000 samples=4 gaps=0 estimated=true")) {
      Counters counters = report(collector.environment(TaskContexts.newContainerId()));
      assertEquals(2000, value(counters, ENERGY_MILLIJOULES));
      assertEquals(500, value(counters, IDLE_SHARE_MILLIJOULES));
      assertEquals(1, value(counters, TASKS_METERED));
      assertEquals(1, value(counters, TASKS_ESTIMATED));
    }
  }

  @Test
  void report_uberTasksInOneContainer_onlyWhatAccruedSinceLastReport() throws IOException {
    String container = TaskContexts.newContainerId();
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=1000000 idle_uj=300000 samples=10 gaps=1 estimated=false",
        "OK energy_uj=2500000 idle_uj=700000 samples=25 gaps=3 estimated=false")) {
      Counters map = report(collector.environment(container), TaskType.MAP, 0);
      Counters reduce = report(collector.environment(container), TaskType.REDUCE, 0);

      assertEquals(1000, value(map, ENERGY_MILLIJOULES));
      assertEquals(300, value(map, IDLE_SHARE_MILLIJOULES));
      assertEquals(10, value(map, SAMPLES));
      assertEquals(1, value(map, METER_GAPS));
      assertEquals(1500, value(reduce, ENERGY_MILLIJOULES));
      assertEquals(400, value(reduce, IDLE_SHARE_MILLIJOULES));
      assertEquals(15, value(reduce, SAMPLES));
      assertEquals(2, value(reduce, METER_GAPS));
      assertEquals(1, value(reduce, TASKS_METERED));
      assertEquals(2, collector.requests().size());
    }
  }

  @Test
  void report_uberTasks_sumToContainerEnergyRoundedOnce() throws IOException {
    // Three tasks in one container; its account grows 1499 µJ per task, 4497 µJ in all: the job
    // must sum to 4 mJ (4.497 rounded), not to three separately rounded 1.499 mJ deltas.
    String container = TaskContexts.newContainerId();
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=1499 idle_uj=1499 samples=1 gaps=0 estimated=false",
        "OK energy_uj=2998 idle_uj=2998 samples=2 gaps=0 estimated=false",
        "OK energy_uj=4497 idle_uj=4497 samples=3 gaps=0 estimated=false")) {
      long energy = 0;
      long idle = 0;
      for (int task = 0; task < 3; task++) {
        Counters counters = report(collector.environment(container), TaskType.MAP, task);
        energy += value(counters, ENERGY_MILLIJOULES);
        idle += value(counters, IDLE_SHARE_MILLIJOULES);
        assertEquals(1, value(counters, SAMPLES));
      }
      assertEquals(4, energy);
      assertEquals(4, idle);
    }
  }

  @Test
  void report_queryFailsBetweenUberTasks_noEnergyLost() throws IOException {
    String container = TaskContexts.newContainerId();
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=1000000 idle_uj=0 samples=10 gaps=0 estimated=false",
        "ERR busy",
        "OK energy_uj=3000000 idle_uj=0 samples=30 gaps=0 estimated=false")) {
      Counters first = report(collector.environment(container), TaskType.MAP, 0);
      Counters second = report(collector.environment(container), TaskType.MAP, 1);
      Counters third = report(collector.environment(container), TaskType.REDUCE, 0);

      assertEquals(1000, value(first, ENERGY_MILLIJOULES));
      assertUnmetered(second);
      assertEquals(2000, value(third, ENERGY_MILLIJOULES));
      assertEquals(20, value(third, SAMPLES));
    }
  }

  @Test
  void report_noCollectorEnvironment_unmetered() throws IOException {
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=1000 idle_uj=0 samples=1 gaps=0 estimated=false")) {
      assertUnmetered(report(Map.of()));
      assertUnmetered(report(Map.of("CONTAINER_ID", TaskContexts.newContainerId())));
      assertUnmetered(report(Map.of(EnergyProtocol.ENV_METADATA,
          FakeCollector.metadata(collector.port()))));
      assertEquals(List.of(), collector.requests());
    }
  }

  @Test
  void report_errAnswer_unmetered() throws IOException {
    String container = TaskContexts.newContainerId();
    try (FakeCollector collector = new FakeCollector("ERR unknown container " + container)) {
      assertUnmetered(report(collector.environment(container)));
      assertEquals(List.of("ENERGY " + container), collector.requests());
    }
  }

  @Test
  void report_collectorNeverAnswers_timesOutUnmetered() throws IOException {
    try (FakeCollector collector = new FakeCollector(FakeCollector.SILENT)) {
      Map<String, String> environment = collector.environment(TaskContexts.newContainerId());
      long start = System.nanoTime();
      Counters counters = assertTimeoutPreemptively(Duration.ofSeconds(10),
          () -> report(environment));
      long millis = (System.nanoTime() - start) / 1_000_000;

      assertUnmetered(counters);
      assertEquals(1, collector.requests().size());
      assertTrue(millis >= TIMEOUT_MS - 50 && millis < 5 * TIMEOUT_MS + 2000,
          "gave up after " + millis + " ms with a " + TIMEOUT_MS + " ms timeout");
    }
  }

  @Test
  void report_collectorHangsUp_unmetered() throws IOException {
    try (FakeCollector collector = new FakeCollector(FakeCollector.HANG_UP)) {
      assertUnmetered(report(collector.environment(TaskContexts.newContainerId())));
      assertEquals(1, collector.requests().size());
    }
  }

  @Test
  void report_noCollectorListening_unmetered() throws IOException {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    assertUnmetered(report(Map.of(EnergyProtocol.ENV_METADATA, FakeCollector.metadata(port),
        "CONTAINER_ID", TaskContexts.newContainerId())));
  }

  @Test
  void report_collectorRefusesBeyondTheRestartWait_unmeteredAfterThatManyPauses() throws Exception {
    int port = closedPort();
    Configuration conf = conf();
    conf.setInt(EnergyKeys.CLIENT_RESTART_WAIT_MS.name(), 3000);
    List<Long> pauses = new ArrayList<>();
    CountersReporter reporter = new CountersReporter();
    new TaskEnergyReporter(Map.of(EnergyProtocol.ENV_METADATA, FakeCollector.metadata(port),
        "CONTAINER_ID", TaskContexts.newContainerId()), pauses::add).report(
        TaskContexts.context(conf, TaskContexts.attempt(TaskType.MAP, 0, 0), reporter));

    assertUnmetered(reporter.counters);
    assertEquals(List.of(1000L, 1000L, 1000L), pauses);
  }

  /**
   * A map of {@code container} reports while its collector's port is closed (its NodeManager
   * restarting, a restart wait of 30 s); at pause number {@code backAt} a collector comes back
   * on that port answering {@code answers} in turn. Each pause is added to {@code pauses}.
   */
  private static CountersReporter reportWithCollectorBackAtPause(int backAt, String container,
      List<Long> pauses, String... answers) throws Exception {
    int port = closedPort();
    Configuration conf = conf();
    conf.setInt(EnergyKeys.CLIENT_RESTART_WAIT_MS.name(), 30_000);
    List<FakeCollector> restarted = new ArrayList<>();
    CountersReporter reporter = new CountersReporter();
    try {
      new TaskEnergyReporter(Map.of(EnergyProtocol.ENV_METADATA, FakeCollector.metadata(port),
          "CONTAINER_ID", container), millis -> {
            pauses.add(millis);
            if (pauses.size() == backAt) {
              try {
                restarted.add(new FakeCollector(port, answers));
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            }
          }).report(TaskContexts.context(conf, TaskContexts.attempt(TaskType.MAP, 0, 0),
              reporter));
    } finally {
      for (FakeCollector c : restarted) {
        c.close();
      }
    }
    return reporter;
  }

  @Test
  void report_collectorBackAfterARestart_metered() throws Exception {
    // The NodeManager is down when the task ends; its collector comes back on its own port
    // during the second pause.
    String container = TaskContexts.newContainerId();
    List<Long> pauses = new ArrayList<>();
    CountersReporter reporter = reportWithCollectorBackAtPause(2, container, pauses,
        "OK energy_uj=2000000 idle_uj=0 samples=2 gaps=0 estimated=false");

    assertEquals(List.of(1000L, 1000L), pauses);
    assertEquals(1, value(reporter.counters, TASKS_METERED));
    assertEquals(2000, value(reporter.counters, ENERGY_MILLIJOULES));
  }

  /**
   * The collector comes back from its NodeManager's restart before the NodeManager has told it
   * of the recovered container: "unknown container" twice, then the account. A collector that
   * never restarted and does not know the container is not asked again.
   */
  @Test
  void report_restartedCollectorLearnsTheContainerLate_metered_unknownWithoutRestartNotRetried()
      throws Exception {
    String unknown = EnergyProtocol.ERR + " " + EnergyProtocol.UNKNOWN_CONTAINER + " c";
    List<Long> pauses = new ArrayList<>();
    CountersReporter reporter = reportWithCollectorBackAtPause(1, TaskContexts.newContainerId(),
        pauses, unknown, unknown,
        "OK energy_uj=3000000 idle_uj=0 samples=1 gaps=0 estimated=true");
    assertEquals(List.of(1000L, 1000L, 1000L), pauses);
    assertEquals(1, value(reporter.counters, TASKS_METERED));
    assertEquals(3000, value(reporter.counters, ENERGY_MILLIJOULES));

    List<Long> noPauses = new ArrayList<>();
    CountersReporter second = new CountersReporter();
    Configuration conf = conf();
    conf.setInt(EnergyKeys.CLIENT_RESTART_WAIT_MS.name(), 30_000);
    try (FakeCollector never = new FakeCollector(unknown)) {
      new TaskEnergyReporter(never.environment(TaskContexts.newContainerId()), noPauses::add)
          .report(TaskContexts.context(conf, TaskContexts.attempt(TaskType.MAP, 0, 1), second));
    }
    assertEquals(List.of(), noPauses);
    assertUnmetered(second.counters);
  }

  private static int closedPort() throws IOException {
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return closed.getLocalPort();
    }
  }

  @Test
  void report_garbageAnswer_unmetered() throws IOException {
    List<String> garbage = List.of(
        "HELLO",
        "OK",
        "OK energy_uj=lots idle_uj=0 samples=1 gaps=0 estimated=false",
        "OK energy_uj=5000 idle_uj=9000 samples=1 gaps=0 estimated=false",
        "OK idle_uj=0 samples=1 gaps=0 estimated=false",
        "OK energy_uj=-5 idle_uj=0 samples=1 gaps=0 estimated=false",
        "OK energy_uj=99999999999999999999 idle_uj=0 samples=1 gaps=0 estimated=false");
    for (String answer : garbage) {
      try (FakeCollector collector = new FakeCollector(answer)) {
        Counters counters = report(collector.environment(TaskContexts.newContainerId()));
        assertEquals(1, value(counters, TASKS_UNMETERED), answer);
        assertEquals(0, value(counters, TASKS_METERED), answer);
        assertEquals(0, value(counters, ENERGY_MILLIJOULES), answer);
        assertEquals(1, collector.requests().size(), answer);
      }
    }
  }

  @Test
  void report_malformedMetadata_unmeteredWithoutQuery() throws IOException {
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=1000 idle_uj=0 samples=1 gaps=0 estimated=false")) {
      int port = collector.port();
      List<String> malformed = new ArrayList<>(List.of(
          "not base64!",
          "",
          Base64.encodeBase64String(new byte[] {(byte) (port >> 8), (byte) port}),
          Base64.encodeBase64String(new byte[] {0, 0, 0, 0, 0, 0, (byte) (port >> 8),
              (byte) port}),
          FakeCollector.metadata(0),
          FakeCollector.metadata(-1),
          FakeCollector.metadata(70000)));
      for (String metadata : malformed) {
        Counters counters = report(Map.of(EnergyProtocol.ENV_METADATA, metadata,
            "CONTAINER_ID", TaskContexts.newContainerId()));
        assertEquals(1, value(counters, TASKS_UNMETERED), "'" + metadata + "'");
        assertEquals(0, value(counters, TASKS_METERED), "'" + metadata + "'");
      }
      assertEquals(List.of(), collector.requests());
    }
  }

  @Test
  void report_atHadoopsCounterLimit_taskStillFinishes() throws IOException {
    // A job whose own counters already fill mapreduce.job.counters.max: Hadoop refuses any new
    // counter. Metering must then give up quietly instead of failing the task.
    CountersReporter reporter = new CountersReporter();
    for (int i = 0; i < Limits.getCountersMax(); i++) {
      reporter.counters.findCounter("user", "counter" + i).increment(1);
    }
    try (FakeCollector collector = new FakeCollector(
        "OK energy_uj=1000000 idle_uj=0 samples=1 gaps=0 estimated=false")) {
      TaskEnergyReporter energy = new TaskEnergyReporter(
          collector.environment(TaskContexts.newContainerId()));
      energy.report(TaskContexts.context(conf(), TaskContexts.attempt(TaskType.MAP, 0, 0),
          reporter));
      assertEquals(1, collector.requests().size());
      assertEquals(Limits.getCountersMax(), reporter.counters.getGroup("user").size());
      assertEquals(0, value(reporter.counters, TASKS_METERED));
    }
    // nor when even TASKS_UNMETERED cannot be added
    new TaskEnergyReporter(Map.of()).report(TaskContexts.context(conf(),
        TaskContexts.attempt(TaskType.MAP, 1, 0), reporter));
  }
}
