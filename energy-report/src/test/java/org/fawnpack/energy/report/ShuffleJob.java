package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.Fixtures.JOB_ID;
import static org.fawnpack.energy.report.Fixtures.T0;
import static org.fawnpack.energy.report.Fixtures.reduceAttempt;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/**
 * A job with a shuffle worth seeing, worked out by hand, and a four-slave cluster's histories
 * over it (an Edison-like 1.40 W idle, 1.68 W busy per board, 5 s samples).
 *
 * <pre>
 * job_1700000000000_0007, start T0, finish T0 + 120 s; 4 maps, 2 reduces
 * maps:    m0 1..31 s, m1 1.5..33 s, m2 2..40 s, m3 31..58 s
 * reduces: r0 30..110 s: attempt 0 FAILED 30..45 s (no shuffle finish, -1);
 *                        attempt 1 SUCCEEDED 46..110 s, shuffle finished 66 s, merge 68 s
 *          r1 32..104 s: attempt 0 SUCCEEDED 32..104 s, shuffle finished 62.5 s, merge 63 s;
 *                        attempt 1 KILLED (speculative) 70..80 s, shuffle finished 79 s
 * → map phase 1..58 s; shuffle 30 s (r0's failed first attempt) .. 66 s (r0's successful
 *   attempt; the killed attempt's 79 s does not count); reduce 66..110 s
 * </pre>
 */
final class ShuffleJob {
  static final long WALL = 120_000;
  static final double[] MAP = {1, 58};
  static final double[] SHUFFLE = {30, 66};
  static final double[] REDUCE = {66, 110};
  static final String R0 = "task_1700000000000_0007_r_000000";
  static final String R1 = "task_1700000000000_0007_r_000001";
  static final List<String> SLAVES = List.of("slave1", "slave2", "slave3", "slave4");

  private ShuffleJob() {}

  static String jobJson() {
    return "{\"job\":{\"submitTime\":" + (T0 - 2000) + ",\"startTime\":" + T0
        + ",\"finishTime\":" + (T0 + WALL) + ",\"id\":\"" + JOB_ID + "\",\"name\":\"wordcount\","
        + "\"queue\":\"default\",\"user\":\"alice\",\"state\":\"SUCCEEDED\",\"mapsTotal\":4,"
        + "\"mapsCompleted\":4,\"reducesTotal\":2,\"reducesCompleted\":2,\"uberized\":false}}";
  }

  static String tasksJson() {
    return "{\"tasks\":{\"task\":[" + task("m_000000", "MAP", 1_000, 31_000) + ","
        + task("m_000001", "MAP", 1_500, 33_000) + "," + task("m_000002", "MAP", 2_000, 40_000)
        + "," + task("m_000003", "MAP", 31_000, 58_000) + ","
        + task("r_000000", "REDUCE", 30_000, 110_000) + ","
        + task("r_000001", "REDUCE", 32_000, 104_000) + "]}}";
  }

  private static String task(String suffix, String type, long start, long finish) {
    return Fixtures.task(suffix, type, start, finish);
  }

  static String r0AttemptsJson() {
    return Fixtures.attemptsJson(
        reduceAttempt("attempt_1700000000000_0007_r_000000_0", "FAILED", T0 + 30_000,
            T0 + 45_000, -1, -1),
        reduceAttempt("attempt_1700000000000_0007_r_000000_1", "SUCCEEDED", T0 + 46_000,
            T0 + 110_000, T0 + 66_000, T0 + 68_000));
  }

  static String r1AttemptsJson() {
    return Fixtures.attemptsJson(
        reduceAttempt("attempt_1700000000000_0007_r_000001_0", "SUCCEEDED", T0 + 32_000,
            T0 + 104_000, T0 + 62_500, T0 + 63_000),
        reduceAttempt("attempt_1700000000000_0007_r_000001_1", "KILLED", T0 + 70_000,
            T0 + 80_000, T0 + 79_000, -1));
  }

  static FakeJobHistoryServer serve(FakeJobHistoryServer jhs) {
    return jhs.job(JOB_ID, jobJson(), countersJson(), tasksJson())
        .attempts(JOB_ID, R0, r0AttemptsJson()).attempts(JOB_ID, R1, r1AttemptsJson());
  }

  /** x of {@code seconds} after the start in the page's charts: 680 units from x = 64. */
  static double x(double seconds) {
    return 64 + seconds / (WALL / 1000.0) * 680;
  }

  /**
   * CPU busy % of a slave {@code t} s after the start: maps keep every board busy, the shuffle
   * moves data while the CPUs wait, r0 and r1 reduce on slave1 and slave2.
   */
  private static double cpu(int slave, double t) {
    double wobble = ((Math.round(t) * 7 + slave * 13) % 11) - 5;
    if (t >= MAP[0] && t <= MAP[1] && (t < 40 || slave == 3)) {
      return 88 + wobble;
    }
    if (t >= SHUFFLE[0] && t <= SHUFFLE[1]) {
      return 22 + wobble;
    }
    if (t > REDUCE[0] && t <= REDUCE[1] && slave <= 2) {
      return 64 + wobble;
    }
    return 4 + wobble / 2;
  }

  /** What a slave's containers of the job drew in the 5 s to {@code t} (0: busy under 10 %). */
  private static long appMicrojoules(int slave, long t) {
    double cpu = slave == 0 ? 0 : cpu(slave, t);
    return cpu < 10 ? 0 : Math.round((0.05 + 0.28 * cpu / 100) * 5e6);
  }

  /** The task containers' µJ (all but slave3's ApplicationMaster after the maps), in mJ. */
  private static long taskMillijoules() {
    long uj = 0;
    for (int s = 1; s <= SLAVES.size(); s++) {
      for (long t = -5; t <= 125; t += 5) {
        uj += s == 3 && t > MAP[1] ? 0 : appMicrojoules(s, t);
      }
    }
    return uj / 1000;
  }

  /** The task counters, the energy ones from the same samples as the history files. */
  static String countersJson() {
    long mj = taskMillijoules();
    return "{\"jobCounters\":{\"id\":\"" + JOB_ID + "\",\"counterGroup\":["
        + group("org.apache.hadoop.mapreduce.TaskCounter", counter("MAP_INPUT_RECORDS",
            3_000_000)) + "," + group("org.apache.hadoop.mapreduce.lib.input"
            + ".FileInputFormatCounter", counter("BYTES_READ", 150_000_000)) + ","
        + group("org.fawnpack.energy.EnergyCounter", counter("ENERGY_MILLIJOULES", mj) + ","
            + counter("IDLE_SHARE_MILLIJOULES", mj / 6) + "," + counter("SAMPLES", 120) + ","
            + counter("METER_GAPS", 0) + "," + counter("TASKS_METERED", 6) + ","
            + counter("TASKS_UNMETERED", 0) + "," + counter("TASKS_ESTIMATED", 6))
        + "]}}";
  }

  private static String group(String name, String counters) {
    return "{\"counterGroupName\":\"" + name + "\",\"counter\":[" + counters + "]}";
  }

  private static String counter(String name, long total) {
    return "{\"name\":\"" + name + "\",\"totalCounterValue\":" + total + "}";
  }

  /** Writes every slave's and the master's node history and the slaves' application files. */
  static void writeHistories(Path historyDir) throws IOException {
    Path app = Files.createDirectories(historyDir.resolve(Fixtures.APP_ID));
    for (int s = 0; s <= SLAVES.size(); s++) {
      String node = s == 0 ? "master0" : SLAVES.get(s - 1);
      StringBuilder nodeFile = new StringBuilder("# fawn-energy node history v1\n# node=" + node
          + " role=" + (s == 0 ? "master" : "slave")
          + " interval_ms=5000 roll_ms=60000 meters=model:model estimated=true\n");
      StringBuilder appFile = new StringBuilder(HistoryFileReader.MAGIC + "\n# node=" + node
          + " application=" + Fixtures.APP_ID
          + " interval_ms=5000 meters=model:model estimated=true\n");
      long[] containers = new long[2]; // µJ of the map container, then of the one after it
      for (long t = -5; t <= 125; t += 5) {
        double cpu = s == 0 ? 6 : cpu(s, t);
        double watts = s == 0 ? 52 : 1.40 + 0.28 * cpu / 100;
        long nodeUj = Math.round(watts * 5e6);
        long appUj = appMicrojoules(s, t);
        containers[t <= MAP[1] ? 0 : 1] += appUj;
        boolean shuffle = t >= SHUFFLE[0] && t <= SHUFFLE[1];
        long read = s > 0 && t >= MAP[0] && t <= MAP[1] ? 40_000_000 + s * 1_000_000 : 200_000;
        long written = s > 0 && t > REDUCE[0] && t <= REDUCE[1] && s <= 2 ? 30_000_000 : 300_000;
        long net = s > 0 && shuffle ? 25_000_000 + s * 2_000_000 : 50_000;
        long memory = (s == 0 ? 2_000_000_000L : 300_000_000L) + Math.round(cpu * 4_000_000);
        nodeFile.append(String.format(Locale.ROOT, "sample,%d,%.4f,%d,%d,0,%.1f,%d,%d,%d,%d,%d%n",
            T0 + t * 1000, watts, nodeUj, appUj, cpu, memory, read, written, net, net));
        appFile.append(Fixtures.sample(T0 + t * 1000, watts, nodeUj, appUj, false));
      }
      Path dir = Files.createDirectories(historyDir.resolve("nodes").resolve(node));
      Files.writeString(dir.resolve(String.format(Locale.ROOT, "%013d.csv", T0 - 5000)),
          nodeFile, StandardCharsets.UTF_8);
      if (s > 0) {
        // slaveN ran map N-1; slave1 and slave2 then r0 and r1, slave3 the ApplicationMaster.
        String id = "container_1700000000000_0007_01_00000";
        appFile.append(Fixtures.container(id + (s + 1), "TASK", T0, T0 + 58_000, containers[0]));
        if (s <= 3) {
          appFile.append(Fixtures.container(id + (s <= 2 ? s + 5 : 1), s <= 2 ? "TASK"
              : NodeHistory.APPLICATION_MASTER, T0 + 30_000, T0 + 120_000, containers[1]));
        }
        Files.writeString(app.resolve(node + ".csv"), appFile, StandardCharsets.UTF_8);
      }
    }
  }

  /** Runs {@code energy report} on the job (exit 0 asserted); its standard output. */
  static String report(FakeJobHistoryServer jhs, Path historyDir, String... more)
      throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EnergyReport tool = new EnergyReport(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    List<String> args = new ArrayList<>(List.of("report", JOB_ID, "--jhs", jhs.address(),
        "--history-dir", historyDir.toUri().toString()));
    args.addAll(List.of(more));
    assertEquals(0, ToolRunner.run(new Configuration(), tool, args.toArray(new String[0])));
    return out.toString(StandardCharsets.UTF_8);
  }
}
