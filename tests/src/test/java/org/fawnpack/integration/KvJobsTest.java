package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.jobs.kv.KvCount;
import org.fawnpack.jobs.kv.KvLoad;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.hadoop.FawnKvInputCounter;
import org.fawnpack.kv.hadoop.FawnKvOutputFormat;
import org.fawnpack.kv.hadoop.KvSnapshotTool;
import org.fawnpack.minicluster.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kvcount on a mini cluster (tasks in their own JVMs, the cluster secret carried in the job's
 * credentials) over a FAWN-KV cluster of child-JVM back-ends on loopback, against the count a
 * plain loop makes of what the client wrote.
 */
@Order(1) // with the other classes on ClusterJobs.sharedCluster()
class KvJobsTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = ClusterJobs.sharedCluster();

  private static java.nio.file.Path kvDir;
  private static LoopbackCluster kv;
  private static final Map<String, String> WRITTEN = new TreeMap<>();

  @BeforeAll
  static void startStore() throws Exception {
    kvDir = Files.createTempDirectory("fawn-kv-jobs-test");
    kv = LoopbackCluster.start(kvDir, 3, 1, Map.of());
    try (FawnKvClient client = FawnKvClient.connect(kv.frontEndAddresses(),
        Duration.ofSeconds(30), kv.secret())) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < 5_000; i++) {
        String key = (i % 3 == 0 ? "sensor/" : i % 3 == 1 ? "node/" : "") + "k" + i;
        String value = "reading " + i;
        keys.add(key.getBytes(StandardCharsets.UTF_8));
        values.add(value.getBytes(StandardCharsets.UTF_8));
        WRITTEN.put(key, value);
      }
      client.putAll(keys, values);
    }
  }

  @AfterAll
  static void stopStore() throws Exception {
    if (kv != null) {
      kv.close();
    }
  }

  @Test
  void kvcount_onTheMiniCluster_countsWhatAPlainLoopCounts() throws Exception {
    Configuration conf = CLUSTER.cluster().clientConf();
    conf.set("mapreduce.job.jar", ClusterJobs.jobsJar());
    conf.set("fawn.kv.zookeeper.quorum", kv.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", kv.secretFile().toString());
    KvCount tool = new KvCount();
    assertEquals(0, ToolRunner.run(conf, tool, new String[] {"/kv/counts"}));

    assertEquals(plainLoopCounts(), read(CLUSTER.cluster().fileSystem(),
        new Path("/kv/counts")));

    var counters = tool.lastJob().getCounters();
    assertEquals(WRITTEN.size(), counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
    assertEquals(counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue()
        + counters.findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue(),
        counters.findCounter(EnergyCounter.TASKS_METERED).getValue(), "every task metered");
    assertTrue(counters.findCounter(FawnKvInputCounter.SCAN_PAGES).getValue() >= 1);
  }

  /**
   * A bulk load whose first map attempt writes wrong values and a key of its own, then fails;
   * the retry (a new attempt in a new JVM) and the other map are committed. The store must hold
   * exactly the committed attempts' records, each put once (the tails' sequence numbers count
   * every put), and the failed attempt's key must not exist; the application master puts the
   * files at job commit with the secret from the job's credentials.
   */
  @Test
  void bulkLoad_failedAttemptRetried_committedRecordsPutOnce() throws Exception {
    FileSystem fs = CLUSTER.cluster().fileSystem();
    Map<String, String> expected = new TreeMap<>();
    for (int file = 0; file < 2; file++) {
      StringBuilder lines = new StringBuilder();
      for (int i = 0; i < 1_000; i++) {
        String key = "bulk/" + file + "/" + i;
        lines.append(key).append('\t').append("loaded ").append(i).append('\n');
        expected.put(key, "loaded " + i);
      }
      try (var out = fs.create(new Path("/kv/bulk-in/part" + file))) {
        out.write(lines.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
    long before = putsTaken();
    Configuration conf = CLUSTER.cluster().clientConf();
    conf.set("mapreduce.job.jar", ClusterJobs.jobsJar());
    conf.set("fawn.kv.zookeeper.quorum", kv.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", kv.secretFile().toString());
    conf.setInt("mapreduce.map.maxattempts", 2);
    Job job = Job.getInstance(conf, "bulk load with a failing first attempt");
    FileInputFormat.addInputPath(job, new Path("/kv/bulk-in"));
    job.setInputFormatClass(TextInputFormat.class);
    job.setMapperClass(FirstAttemptFails.class);
    job.setNumReduceTasks(0);
    FawnKvOutputFormat.setUp(job);
    assertTrue(job.waitForCompletion(false), "the job succeeds after the retry");
    assertEquals(3, job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());

    assertEquals(before + expected.size(), putsTaken(), "each committed record put once");
    try (FawnKvClient client = FawnKvClient.connect(kv.frontEndAddresses(),
        Duration.ofSeconds(30), kv.secret())) {
      for (Map.Entry<String, String> e : expected.entrySet()) {
        assertEquals(e.getValue(), new String(client.get(e.getKey().getBytes(
            StandardCharsets.UTF_8)), StandardCharsets.UTF_8), e.getKey());
      }
      assertNull(client.get(FirstAttemptFails.GHOST_KEY), "the failed attempt's key");
    }
    WRITTEN.putAll(expected); // for the other tests' oracles, whatever their order
  }

  /**
   * An offline snapshot onto the mini cluster's HDFS, then kvcount over it (no FAWN-KV cluster
   * named) and online: the same lines, and those of a plain loop's count. The snapshot's splits
   * are located at the datanodes holding their blocks.
   */
  @Test
  void kvcount_ofASnapshotOnHdfs_asOnlineAndAsAPlainLoopCounts() throws Exception {
    Configuration conf = CLUSTER.cluster().clientConf();
    conf.set("mapreduce.job.jar", ClusterJobs.jobsJar());
    conf.set("fawn.kv.zookeeper.quorum", kv.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", kv.secretFile().toString());
    KvSnapshotTool snapshot = new KvSnapshotTool();
    snapshot.setConf(conf);
    assertEquals(0, snapshot.run(new String[] {"--to", "/kv/snapshot"}));
    assertEquals(0, ToolRunner.run(conf, new KvCount(), new String[] {"/kv/online-counts"}));

    Configuration offline = CLUSTER.cluster().clientConf();
    offline.set("mapreduce.job.jar", ClusterJobs.jobsJar());
    KvCount tool = new KvCount();
    assertEquals(0, ToolRunner.run(offline, tool, new String[] {"--snapshot", "/kv/snapshot",
        "/kv/snapshot-counts"}));
    FileSystem fs = CLUSTER.cluster().fileSystem();
    List<String> counted = read(fs, new Path("/kv/snapshot-counts"));
    assertEquals(plainLoopCounts(), counted);
    assertEquals(read(fs, new Path("/kv/online-counts")), counted);
    var counters = tool.lastJob().getCounters();
    assertEquals(WRITTEN.size(), counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
    assertTrue(counters.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue() >= 1,
        "maps run where the snapshot's blocks are");
  }

  private static List<String> plainLoopCounts() {
    Map<String, long[]> expected = new TreeMap<>();
    WRITTEN.forEach((k, v) -> {
      int at = k.indexOf('/');
      long[] c = expected.computeIfAbsent(at < 0 ? "" : k.substring(0, at), p -> new long[2]);
      c[0]++;
      c[1] += k.length() + v.length();
    });
    List<String> lines = new ArrayList<>();
    expected.forEach((p, c) -> lines.add(p + "\t" + c[0] + "\t" + c[1]));
    return lines;
  }

  /** kvload's mapper, but a first attempt of the first map writes wrong records and fails. */
  public static class FirstAttemptFails extends KvLoad.LineMapper {
    static final byte[] GHOST_KEY = "bulk/only-in-a-failed-attempt".getBytes(
        StandardCharsets.UTF_8);
    private boolean failing;

    @Override
    protected void setup(Context context) {
      super.setup(context);
      var attempt = context.getTaskAttemptID();
      failing = attempt.getTaskID().getId() == 0 && attempt.getId() == 0;
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      if (!failing) {
        super.map(offset, line, context);
        return;
      }
      context.write(new BytesWritable(GHOST_KEY), new BytesWritable(new byte[] {1}));
      String text = line.toString();
      context.write(new BytesWritable(text.substring(0, text.indexOf('\t')).getBytes(
          StandardCharsets.UTF_8)), new BytesWritable("wrong".getBytes(StandardCharsets.UTF_8)));
      throw new IOException("this attempt fails on purpose after writing");
    }
  }

  /** Every put the chains took so far (see LoopbackCluster.writesTaken). */
  private static long putsTaken() throws IOException {
    return kv.writesTaken();
  }

  private static List<String> read(FileSystem fs, Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    for (FileStatus part : fs.globStatus(new Path(dir, "part-*"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(
          fs.open(part.getPath()), StandardCharsets.UTF_8))) {
        in.lines().forEach(lines::add);
      }
    }
    lines.sort(null);
    return lines;
  }
}
