package org.fawnpack.energy.report;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One hand-checked job, as the JobHistory server (Jettison-shaped JSON, as Hadoop 3.5.0 writes
 * it) and the collector's history files would show it.
 *
 * <pre>
 * job_1700000000000_0007 "grep &lt;logs&gt; &amp; 'count'", start T0, finish T0 + 100 s
 * maps: m0 2..50 s, m1 3..60 s; reduce r0 55..98 s, its one attempt's shuffle finished at
 *       70 s (merge 72 s) → map phase 2..60 s, shuffle 55..70 s, reduce 70..98 s
 * counters: 1500 J (300 J idle, 20 %), 400 samples, 4 gaps (1 %), 3 of 3 tasks metered,
 *           3,000,000 records → 2000 records/J, 150,000,000 bytes (FileInputFormat) → 100000 B/J
 * nodeA.csv: samples every 10 s ending T0-5 s (outside), T0+5 .. T0+95 s (10 inside, 20 W,
 *            200 J each, app 50 J each, the one at +45 s a gap), T0+105 s (outside); outside
 *            samples carry 10 J app each → node 2000 J, covered 95 s, avg 20 W, app 520 J,
 *            AM container 60 J
 * nodeB.csv: samples ending T0+10 .. T0+100 s (10 inside, 30 W, 300 J each, app 100 J each)
 *            → node 3000 J, covered 100 s, avg 30 W, app 1000 J
 * total: node 5000 J, 50 W, app 1520 J, AM 60 J, 20 history samples with 1 gap (5.0 %),
 *        2 nodes, 4 containers
 * </pre>
 */
final class Fixtures {
  static final String JOB_ID = "job_1700000000000_0007";
  static final String APP_ID = "application_1700000000000_0007";
  static final long T0 = 1_700_000_000_000L;
  static final String JOB_NAME = "grep <logs> & 'count' \"now\"";

  private Fixtures() {
  }

  static String jobJson() {
    return "{\"job\":{\"submitTime\":" + (T0 - 3000) + ",\"startTime\":" + T0
        + ",\"finishTime\":" + (T0 + 100_000) + ",\"id\":\"" + JOB_ID + "\",\"name\":"
        + "\"grep <logs> & 'count' \\\"now\\\"\",\"queue\":\"default\",\"user\":\"alice\","
        + "\"state\":\"SUCCEEDED\",\"mapsTotal\":2,\"mapsCompleted\":2,\"reducesTotal\":1,"
        + "\"reducesCompleted\":1,\"uberized\":false,\"diagnostics\":\"\",\"avgMapTime\":52500,"
        + "\"avgReduceTime\":20000,\"avgShuffleTime\":13000,\"avgMergeTime\":10,"
        + "\"failedReduceAttempts\":0,\"killedReduceAttempts\":0,"
        + "\"successfulReduceAttempts\":1,\"failedMapAttempts\":0,\"killedMapAttempts\":0,"
        + "\"successfulMapAttempts\":2}}";
  }

  /** Note the Jettison shapes: the one-counter group has an object, not an array. */
  static String countersJson() {
    return countersJson(0);
  }

  static String countersJson(long tasksEstimated) {
    return "{\"jobCounters\":{\"id\":\"" + JOB_ID + "\",\"counterGroup\":["
        + group("org.apache.hadoop.mapreduce.FileSystemCounter",
            counter("HDFS_BYTES_READ", 150_000_300, 0) + "," + counter("FILE_BYTES_READ", 0, 17))
        + "," + group("org.apache.hadoop.mapreduce.TaskCounter",
            counter("MAP_INPUT_RECORDS", 3_000_000, 0) + "," + counter("SPILLED_RECORDS", 5, 5))
        + "," + group("org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter",
            counter("BYTES_READ", 150_000_000, 0)).replace("\"counter\":[", "\"counter\":")
            .replace("}]}", "}}")
        + "," + group("org.fawnpack.energy.EnergyCounter",
            counter("ENERGY_MILLIJOULES", 1_000_000, 500_000) + ","
                + counter("IDLE_SHARE_MILLIJOULES", 200_000, 100_000) + ","
                + counter("SAMPLES", 300, 100) + "," + counter("METER_GAPS", 3, 1) + ","
                + counter("TASKS_METERED", 2, 1) + "," + counter("TASKS_UNMETERED", 0, 0)
                + "," + counter("TASKS_ESTIMATED", tasksEstimated, 0))
        + "]}}";
  }

  private static String group(String name, String counters) {
    return "{\"counterGroupName\":\"" + name + "\",\"counter\":[" + counters + "]}";
  }

  private static String counter(String name, long map, long reduce) {
    return "{\"name\":\"" + name + "\",\"totalCounterValue\":" + (map + reduce)
        + ",\"mapCounterValue\":" + map + ",\"reduceCounterValue\":" + reduce + "}";
  }

  static String tasksJson() {
    return "{\"tasks\":{\"task\":[" + task("m_000000", "MAP", 2_000, 50_000) + ","
        + task("m_000001", "MAP", 3_000, 60_000) + "," + task("r_000000", "REDUCE", 55_000, 98_000)
        + "]}}";
  }

  static String task(String suffix, String type, long start, long finish) {
    String id = "task_1700000000000_0007_" + suffix;
    return "{\"startTime\":" + (T0 + start) + ",\"finishTime\":" + (T0 + finish)
        + ",\"elapsedTime\":" + (finish - start) + ",\"progress\":100,\"id\":\"" + id
        + "\",\"state\":\"SUCCEEDED\",\"type\":\"" + type + "\",\"successfulAttempt\":\"attempt_"
        + id.substring(5) + "_0\",\"status\":\"\"}";
  }

  /** The job's three resources and its reduce task's attempts. */
  static FakeJobHistoryServer serve(FakeJobHistoryServer jhs) {
    return jhs.job(JOB_ID, jobJson(), countersJson(), tasksJson())
        .attempts(JOB_ID, REDUCE_TASK, reduceAttemptsJson());
  }

  static final String REDUCE_TASK = "task_1700000000000_0007_r_000000";

  /** r0's one attempt, a bare object as Jettison writes a one-element list. */
  static String reduceAttemptsJson() {
    return attemptsJson(reduceAttempt("attempt_1700000000000_0007_r_000000_0", "SUCCEEDED",
        T0 + 55_000, T0 + 98_000, T0 + 70_000, T0 + 72_000));
  }

  /**
   * {@code {"taskAttempts":{"taskAttempt":[...]}}}, one attempt bare and none {@code ""}, as
   * Jersey 2.46 + Jettison 1.5.4 marshal Hadoop 3.5.0's TaskAttemptsInfo (captured).
   */
  static String attemptsJson(String... attempts) {
    if (attempts.length == 0) {
      return "{\"taskAttempts\":\"\"}";
    }
    String list = attempts.length == 1 ? attempts[0] : "[" + String.join(",", attempts) + "]";
    return "{\"taskAttempts\":{\"taskAttempt\":" + list + "}}";
  }

  /**
   * One reduce attempt with every field of Hadoop 3.5.0's ReduceTaskAttemptInfo, in its order;
   * epoch ms, -1 where the attempt never got there (its elapsed times then 0, as Hadoop's).
   */
  static String reduceAttempt(String id, String state, long start, long finish, long shuffle,
      long merge) {
    return "{\"startTime\":" + start + ",\"finishTime\":" + finish + ",\"elapsedTime\":"
        + (finish - start) + ",\"progress\":100,\"id\":\"" + id + "\",\"rack\":\"/default-rack\","
        + "\"state\":\"" + state + "\",\"status\":\"reduce > reduce\",\"nodeHttpAddress\":"
        + "\"nodeB:8042\",\"diagnostics\":\"\",\"type\":\"REDUCE\",\"assignedContainerId\":"
        + "\"container_1700000000000_0007_01_000004\",\"shuffleFinishTime\":" + shuffle
        + ",\"mergeFinishTime\":" + merge + ",\"elapsedShuffleTime\":" + elapsed(start, shuffle)
        + ",\"elapsedMergeTime\":" + elapsed(shuffle, merge) + ",\"elapsedReduceTime\":"
        + elapsed(merge, finish) + "}";
  }

  private static long elapsed(long from, long to) {
    return from > 0 && to > 0 ? to - from : 0;
  }

  static String header(String node, boolean estimated) {
    return HistoryFileReader.MAGIC + "\n# node=" + node + " application=" + APP_ID
        + " interval_ms=10000 meters=wall:snmp;cpu:sigar estimated=" + estimated + "\n";
  }

  /** The collector's own line format ({@code HistoryFile.write}). */
  static String sample(long endMillis, double watts, long nodeUj, long appUj, boolean gap) {
    return String.format(Locale.ROOT, "sample,%d,%.4f,%d,%d,%d%n", endMillis, watts, nodeUj,
        appUj, gap ? 1 : 0);
  }

  static String container(String id, String type, long start, long stop, long energyUj) {
    return "container," + id + "," + type + ",1,1024," + start + "," + stop + "," + energyUj
        + "," + energyUj / 5 + ",10,0,false\n";
  }

  static String nodeA(boolean estimated) {
    StringBuilder s = new StringBuilder(header("nodeA", estimated));
    s.append(sample(T0 - 5_000, 12.5, 125_000_000, 10_000_000, false));
    for (int i = 0; i < 10; i++) {
      long end = T0 + 5_000 + i * 10_000L;
      s.append(sample(end, 20.0, 200_000_000, 50_000_000, end == T0 + 45_000));
    }
    s.append(sample(T0 + 105_000, 12.5, 125_000_000, 10_000_000, false));
    s.append(container("container_1700000000000_0007_01_000001", "APPLICATION_MASTER",
        T0 - 8_000, T0 + 106_000, 60_000_000));
    s.append(container("container_1700000000000_0007_01_000002", "TASK", T0 + 2_000,
        T0 + 50_000, 700_000_000));
    return s.toString();
  }

  static String nodeB() {
    StringBuilder s = new StringBuilder(header("nodeB", false));
    for (int i = 1; i <= 10; i++) {
      s.append(sample(T0 + i * 10_000L, 30.0, 300_000_000, 100_000_000, false));
    }
    s.append(container("container_1700000000000_0007_01_000003", "TASK", T0 + 3_000,
        T0 + 60_000, 500_000_000));
    s.append(container("container_1700000000000_0007_01_000004", "TASK", T0 + 55_000, -1,
        300_000_000));
    return s.toString();
  }

  /** Writes nodeA.csv and nodeB.csv under {@code <historyDir>/<appId>/}. */
  static Path writeHistory(Path historyDir, boolean estimated) throws IOException {
    Path app = Files.createDirectories(historyDir.resolve(APP_ID));
    Files.writeString(app.resolve("nodeA.csv"), nodeA(estimated), StandardCharsets.UTF_8);
    Files.writeString(app.resolve("nodeB.csv"), nodeB(), StandardCharsets.UTF_8);
    return app;
  }

  static NodeHistory parse(String content, String fileName) throws IOException {
    return HistoryFileReader.parse(new StringReader(content), fileName, "/test/" + fileName);
  }

  /** The model, built without any server or file system. */
  static EnergyReportModel model(boolean estimatedNode, long tasksEstimated) throws IOException {
    JobHistoryClient.JobInfo job = new JobHistoryClient.JobInfo(JOB_ID, JOB_NAME, "alice",
        "default", "SUCCEEDED", T0 - 3000, T0, T0 + 100_000, 2, 2, 1, 1);
    JobPhases phases = JobPhases.of(JobHistoryClient.tasksFrom(JettisonJson.parse(tasksJson())),
        ReduceAttempt.listFrom(JettisonJson.parse(reduceAttemptsJson())));
    return EnergyReportModel.build(job,
        JobHistoryClient.countersFrom(JettisonJson.parse(countersJson(tasksEstimated))), phases,
        "file:/tmp/fawn/energy/" + APP_ID,
        List.of(parse(nodeA(estimatedNode), "nodeA.csv"), parse(nodeB(), "nodeB.csv")), null);
  }
}
