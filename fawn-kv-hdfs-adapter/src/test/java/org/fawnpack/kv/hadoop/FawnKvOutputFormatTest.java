package org.fawnpack.kv.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskType;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.client.FawnKvClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bulk load's output format and committer driven through the steps the MapReduce framework
 * takes (set up the job; per task attempt: set up, write, commit or abort; commit or abort the
 * job) against a FAWN-KV cluster of child-JVM back-ends. Oracles: a map of what the committed
 * attempts wrote, read back with the client's gets; and the tails' sequence numbers, which
 * count every put the chains took, so a record put twice shows even when its value does not
 * change.
 */
class FawnKvOutputFormatTest {
  @TempDir
  static Path dir;
  private static LoopbackCluster cluster;
  private static int jobs;

  @BeforeAll
  static void start() throws Exception {
    cluster = LoopbackCluster.start(dir.resolve("kv"), 3, 1, Map.of());
    // An acknowledged put shows every back-end serving the ring, so STATS come from all.
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(30), cluster.secret())) {
      kv.put(bytes("warm-up"), bytes("x"));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** One job's contexts, as the framework would make them. */
  private static final class FakeJob {
    final JobContext context;
    final JobID id = new JobID("bulk", ++jobs);
    final FawnKvOutputFormat format = new FawnKvOutputFormat();
    final Path staging;

    FakeJob() throws IOException {
      Configuration conf = FrameworkSteps.conf(cluster, dir.resolve("staging"));
      conf.setInt(KvOutputKeys.BATCH_RECORDS.name(), 64);
      Job job = Job.getInstance(conf);
      FawnKvOutputFormat.setUp(job);
      context = FrameworkSteps.jobContext(job, id);
      staging = Path.of(FawnKvOutputFormat.getOutputPath(context).toUri());
      format.checkOutputSpecs(context);
      committer(attempt(0, 0)).setupJob(context);
    }

    TaskAttemptContext attempt(int task, int attempt) {
      return FrameworkSteps.attempt(context, TaskType.REDUCE, task, attempt);
    }

    OutputCommitter committer(TaskAttemptContext attempt) throws IOException {
      return format.getOutputCommitter(attempt);
    }

    /** Sets up {@code attempt} and writes {@code records} through its record writer. */
    OutputCommitter write(TaskAttemptContext attempt, Map<String, String> records)
        throws Exception {
      return FrameworkSteps.write(format, attempt, records);
    }

    void commitTask(TaskAttemptContext attempt, OutputCommitter committer) throws IOException {
      assertTrue(committer.needsTaskCommit(attempt));
      committer.commitTask(attempt);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, String> records(String prefix, int count, String value) {
    Map<String, String> records = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      records.put(prefix + i, value + i + "-" + "v".repeat(i % 40));
    }
    return records;
  }

  /** Every put the chains took so far (see LoopbackCluster.writesTaken). */
  private static long putsTaken() throws IOException {
    return cluster.writesTaken();
  }

  private static void assertStored(Map<String, String> expected) throws IOException {
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(30), cluster.secret())) {
      List<byte[]> keys = new ArrayList<>();
      expected.keySet().forEach(k -> keys.add(bytes(k)));
      List<byte[]> values = kv.getAll(keys);
      int i = 0;
      for (String value : expected.values()) {
        byte[] got = values.get(i++);
        if (value == null) {
          assertNull(got, "key " + expected.keySet().toArray()[i - 1] + " must be absent");
        } else {
          assertArrayEquals(bytes(value), got);
        }
      }
    }
  }

  private static boolean stagingEmpty() throws IOException {
    Path root = dir.resolve("staging");
    if (!Files.exists(root)) {
      return true;
    }
    try (var children = Files.list(root)) {
      return children.findAny().isEmpty();
    }
  }

  @Test
  void retriedAndSpeculativeAttempts_onlyCommittedOnesLoaded_eachRecordPutOnce()
      throws Exception {
    long before = putsTaken();
    FakeJob job = new FakeJob();
    // Task 0: attempt 0 writes values of its own and a key no other attempt writes, then fails.
    Map<String, String> failed = records("bulk/a/", 300, "failed-");
    failed.put("bulk/only-in-failed-attempt", "x");
    TaskAttemptContext a0 = job.attempt(0, 0);
    job.write(a0, failed).abortTask(a0);
    Map<String, String> task0 = records("bulk/a/", 300, "good-");
    TaskAttemptContext a1 = job.attempt(0, 1);
    job.commitTask(a1, job.write(a1, task0));
    // Task 1: two attempts run at once (speculation); the second is let commit.
    Map<String, String> task1 = records("bulk/b/", 500, "second-");
    TaskAttemptContext b0 = job.attempt(1, 0);
    OutputCommitter slow = job.write(b0, records("bulk/b/", 500, "first-"));
    TaskAttemptContext b1 = job.attempt(1, 1);
    job.commitTask(b1, job.write(b1, task1));
    slow.abortTask(b0);
    assertEquals(before, putsTaken(), "nothing may be put before the job commits");

    job.committer(a1).commitJob(job.context);

    Map<String, String> expected = new TreeMap<>(task0);
    expected.putAll(task1);
    assertStored(expected);
    Map<String, String> absent = new TreeMap<>();
    absent.put("bulk/only-in-failed-attempt", null);
    assertStored(absent);
    assertEquals(before + expected.size(), putsTaken(), "each committed record put once");
    assertFalse(Files.exists(job.staging), "the staging directory is deleted after commit");
    assertTrue(stagingEmpty());
  }

  @Test
  void jobKilledOrFailedBeforeCommit_loadsNothing() throws Exception {
    for (JobStatus.State end : List.of(JobStatus.State.KILLED, JobStatus.State.FAILED)) {
      long before = putsTaken();
      FakeJob job = new FakeJob();
      Map<String, String> written = records("bulk/killed-" + end + "/", 200, "v");
      TaskAttemptContext t0 = job.attempt(0, 0);
      job.commitTask(t0, job.write(t0, written));
      TaskAttemptContext t1 = job.attempt(1, 0);
      job.write(t1, records("bulk/running-" + end + "/", 50, "v")); // still running when killed
      job.committer(t0).abortJob(job.context, end);
      assertEquals(before, putsTaken(), end + ": nothing put");
      Map<String, String> absent = new TreeMap<>();
      written.keySet().forEach(k -> absent.put(k, null));
      assertStored(absent);
      assertFalse(Files.exists(job.staging), end + ": staging directory deleted");
    }
  }

  @Test
  void unstorableRecord_failsTheTask_whenWritten() throws Exception {
    FakeJob job = new FakeJob();
    TaskAttemptContext t0 = job.attempt(0, 0);
    job.committer(t0).setupTask(t0);
    RecordWriter<BytesWritable, BytesWritable> writer = job.format.getRecordWriter(t0);
    writer.write(new BytesWritable(bytes("fine")), new BytesWritable(bytes("v")));
    IOException e = assertThrows(IOException.class,
        () -> writer.write(new BytesWritable(), new BytesWritable(bytes("v"))));
    assertTrue(e.getMessage().contains("record 2") && e.getMessage().contains("the key is empty"),
        e.getMessage());
    e = assertThrows(IOException.class, () -> writer.write(new BytesWritable(new byte[70_000]),
        new BytesWritable(bytes("v"))));
    assertTrue(e.getMessage().contains("70000 bytes"), e.getMessage());
    writer.close(t0);
    job.committer(t0).abortTask(t0);
    job.committer(t0).abortJob(job.context, JobStatus.State.FAILED);
  }

  @Test
  void refusals_nameWhatIsWrong() throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("fawn.kv.secret-file", cluster.secretFile().toString());
    Job noCluster = Job.getInstance(conf);
    FawnKvOutputFormat.setUp(noCluster);
    IOException e = assertThrows(IOException.class,
        () -> new FawnKvOutputFormat().checkOutputSpecs(noCluster));
    assertTrue(e.getMessage().contains("fawn.kv.zookeeper.quorum"), e.getMessage());

    conf.set("fawn.kv.zookeeper.quorum", cluster.zooKeeperQuorum());
    Job version2 = Job.getInstance(conf);
    FawnKvOutputFormat.setUp(version2);
    version2.getConfiguration().setInt("mapreduce.fileoutputcommitter.algorithm.version", 2);
    e = assertThrows(IOException.class,
        () -> new FawnKvOutputFormat().checkOutputSpecs(version2));
    assertTrue(e.getMessage().contains("algorithm.version=2"), e.getMessage());

    Job unset = Job.getInstance(conf);
    e = assertThrows(IOException.class, () -> new FawnKvOutputFormat().checkOutputSpecs(unset));
    assertTrue(e.getMessage().contains("FawnKvOutputFormat.setUp"), e.getMessage());

    conf.set("fawn.kv.secret-file", dir.resolve("no-such-secret").toString());
    e = assertThrows(IOException.class, () -> FawnKvOutputFormat.setUp(Job.getInstance(conf)));
    assertTrue(e.getMessage().contains("no-such-secret"), e.getMessage());
  }
}
