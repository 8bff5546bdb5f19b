package org.fawnpack.energy;

import java.io.IOException;
import java.net.ConnectException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs in the task JVM at the end of a task: asks this node's collector for the container's joules
 * and adds them to the task's counters. Metering never fails a task: a missing collector or an
 * unanswered query is logged once per JVM and counted as TASKS_UNMETERED.
 */
final class TaskEnergyReporter {
  static final String CLIENT_TIMEOUT_KEY = EnergyKeys.CLIENT_TIMEOUT_MS.name();
  private static final Logger LOG = LoggerFactory.getLogger(TaskEnergyReporter.class);

  /**
   * What this JVM already reported per container. An uber job runs all its tasks one after the
   * other in the AM's container; each task then reports only what accrued since the last one, so
   * the job's sum is the container's energy once, not once per task.
   */
  private static final Map<String, ContainerEnergy> REPORTED = new ConcurrentHashMap<>();
  private static final Set<String> LOGGED_CAUSES = ConcurrentHashMap.newKeySet();

  /** Waits between attempts; tests pass their own. */
  interface Pause {
    void millis(long millis) throws InterruptedException;
  }

  private final Map<String, String> environment;
  private final Pause pause;

  TaskEnergyReporter(Map<String, String> environment) {
    this(environment, Thread::sleep);
  }

  TaskEnergyReporter(Map<String, String> environment, Pause pause) {
    this.environment = environment;
    this.pause = pause;
  }

  void report(TaskAttemptContext context) {
    try {
      reportOrCountUnmetered(context);
    } catch (RuntimeException e) {
      // Hadoop refuses new counters once mapreduce.job.counters.max (or .groups.max) is reached;
      // a task of a counter-heavy job must still finish.
      logOnce("counters", "Could not add the energy counters: " + e
          + "; the task reports no energy");
    }
  }

  private void reportOrCountUnmetered(TaskAttemptContext context) {
    String metadata = environment.get(EnergyProtocol.ENV_METADATA);
    String containerId = environment.get("CONTAINER_ID");
    if (metadata == null || containerId == null) {
      logOnce("no-collector", "No " + EnergyProtocol.SERVICE_NAME + " collector on this node ("
          + EnergyProtocol.ENV_METADATA + " is not set): the task reports no energy");
      context.getCounter(EnergyCounter.TASKS_UNMETERED).increment(1);
      return;
    }
    int timeout = setting(context.getConfiguration(), EnergyKeys.CLIENT_TIMEOUT_MS);
    int restartWait = setting(context.getConfiguration(), EnergyKeys.CLIENT_RESTART_WAIT_MS);
    try {
      int port = EnergyProtocol.decodePort(metadata);
      ContainerEnergy total = ask(new CollectorClient(port, timeout), containerId, restartWait);
      ContainerEnergy earlier = REPORTED.getOrDefault(containerId, ContainerEnergy.NONE);
      ContainerEnergy delta = total.minus(earlier);
      REPORTED.put(containerId, total);
      addCounters(context, earlier, total, delta);
    } catch (IOException | IllegalArgumentException e) {
      logOnce("query-failed", "The energy collector did not answer for " + containerId + ": " + e
          + "; the task reports no energy");
      context.getCounter(EnergyCounter.TASKS_UNMETERED).increment(1);
    }
  }

  /**
   * The container's account; while the collector refuses connections (its NodeManager is
   * restarting: the collector was there when the container started, and comes back on the same
   * port), asks again once a second for up to {@code restartWaitMillis}. A collector back from
   * such a restart may not know the container yet (the NodeManager tells it of the containers
   * it recovers after the collector listens again; one started just before the restart is not
   * in the collector's last checkpoint): within the same wait, that answer is asked again too.
   */
  private ContainerEnergy ask(CollectorClient client, String containerId, int restartWaitMillis)
      throws IOException {
    boolean restarted = false;
    for (int waited = 0; ; waited += 1000) {
      try {
        return client.containerEnergy(containerId);
      } catch (ConnectException | UnknownContainerException e) {
        boolean refused = e instanceof ConnectException;
        restarted |= refused;
        if (!restarted || waited >= restartWaitMillis) {
          throw e;
        }
        logOnce(refused ? "refused" : "unknown-after-restart", refused
            ? "The energy collector refused the connection for " + containerId + " (its"
                + " NodeManager restarting?); asking again for up to " + restartWaitMillis + " ms"
            : "The restarted energy collector does not know " + containerId + " yet (its"
                + " NodeManager recovers it); asking again for up to " + restartWaitMillis
                + " ms");
        try {
          pause.millis(1000);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  /**
   * Millijoules are the rounded totals' difference, not the rounded delta: the tasks of one
   * container then sum to its total rounded once, however many of them there are.
   */
  private static void addCounters(TaskAttemptContext context, ContainerEnergy earlier,
      ContainerEnergy total, ContainerEnergy delta) {
    context.getCounter(EnergyCounter.ENERGY_MILLIJOULES).increment(
        millijoules(total.energyMicrojoules()) - millijoules(earlier.energyMicrojoules()));
    context.getCounter(EnergyCounter.IDLE_SHARE_MILLIJOULES).increment(
        millijoules(total.idleMicrojoules()) - millijoules(earlier.idleMicrojoules()));
    context.getCounter(EnergyCounter.SAMPLES).increment(delta.samples());
    context.getCounter(EnergyCounter.METER_GAPS).increment(delta.gaps());
    context.getCounter(EnergyCounter.TASKS_METERED).increment(1);
    if (delta.estimated()) {
      context.getCounter(EnergyCounter.TASKS_ESTIMATED).increment(1);
    }
  }

  private static long millijoules(long microjoules) {
    return Math.round(microjoules / 1000.0);
  }

  private static void logOnce(String cause, String message) {
    if (LOGGED_CAUSES.add(cause)) {
      LOG.warn(message);
    }
  }

  /** The job never fails because of metering: a bad setting is logged and the default used. */
  private static int setting(org.apache.hadoop.conf.Configuration conf,
      org.fawnpack.conf.ConfigKey<Integer> key) {
    try {
      return key.read(conf::get);
    } catch (IllegalArgumentException e) {
      LOG.warn("{}; using {} ms", e.getMessage(), key.defaultValue());
      return key.defaultValue();
    }
  }
}
