package org.fawnpack.kv.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskType;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bulk load by attached files driven through the steps the MapReduce framework takes (set
 * up the job; per reduce attempt: set up, write, commit or abort; commit or abort the job)
 * against a FAWN-KV cluster of child-JVM back-ends. Oracles: the ring read from ZooKeeper for
 * where each key belongs, and a map of what the committed attempts wrote, read back with gets.
 */
class FawnKvAttachOutputFormatTest {
  @TempDir
  static Path dir;
  private static LoopbackCluster cluster;
  private static int jobs;

  @BeforeAll
  static void start() throws Exception {
    cluster = LoopbackCluster.start(dir.resolve("kv"), 3, 1, Map.of());
    try (FawnKvClient kv = client()) {
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
    final JobID id = new JobID("attach", ++jobs);
    final FawnKvAttachOutputFormat format = new FawnKvAttachOutputFormat();
    final Path staging;
    final AttachPlan plan;

    FakeJob() throws IOException {
      Job job = Job.getInstance(FrameworkSteps.conf(cluster, dir.resolve("staging")));
      FawnKvAttachOutputFormat.setUp(job);
      context = FrameworkSteps.jobContext(job, id);
      staging = Path.of(FawnKvAttachOutputFormat.getOutputPath(context).toUri());
      plan = AttachPlan.read(context.getConfiguration(), context.getCredentials());
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

    /** {@code records} split by the partitioner into one map per reduce. */
    List<Map<String, String>> byReduce(Map<String, String> records) {
      ArcPartitioner partitioner = new ArcPartitioner();
      partitioner.setConf(context.getConfiguration());
      List<Map<String, String>> parts = new ArrayList<>();
      for (int i = 0; i < plan.arcs().size(); i++) {
        parts.add(new TreeMap<>());
      }
      records.forEach((k, v) -> parts.get(partitioner.getPartition(
          new BytesWritable(bytes(k)), null, plan.arcs().size())).put(k, v));
      return parts;
    }
  }

  @Test
  void partitioner_sendsEachKeyToTheReduceOfItsArcInTheRing() throws Exception {
    FakeJob job = new FakeJob();
    Ring ring = cluster.ring();
    assertEquals(ring.chains().size(), job.context.getNumReduceTasks());
    List<Map<String, String>> parts = job.byReduce(records("where/", 2_000, "v"));
    for (int reduce = 0; reduce < parts.size(); reduce++) {
      for (String key : parts.get(reduce).keySet()) {
        assertEquals(ring.chains().get(reduce).range(),
            ring.chainFor(ring.hash().position(bytes(key))).range(), key);
      }
    }
    job.committer(job.attempt(0, 0)).abortJob(job.context, JobStatus.State.KILLED);
  }

  @Test
  void committedReducesLoadedTogether_failedAndSpeculativeAttemptsLeaveNothing()
      throws Exception {
    FakeJob job = new FakeJob();
    Map<String, String> good = records("attach/", 1_500, "good-");
    List<Map<String, String>> parts = job.byReduce(good);
    OutputCommitter any = null;
    for (int reduce = 0; reduce < parts.size(); reduce++) {
      // Attempt 0 writes other values and a key of its own, then fails.
      Map<String, String> failed = new TreeMap<>();
      parts.get(reduce).forEach((k, v) -> failed.put(k, "failed-" + v));
      TaskAttemptContext a0 = job.attempt(reduce, 0);
      job.write(a0, failed).abortTask(a0);
      TaskAttemptContext a1 = job.attempt(reduce, 1);
      OutputCommitter committer = job.write(a1, parts.get(reduce));
      // An arc may get none of the keys (the ring's positions are random: with 12 arcs and
      // 1,500 keys, about one run in ten): its reduce has nothing to commit.
      boolean wrote = !parts.get(reduce).isEmpty();
      assertEquals(wrote, committer.needsTaskCommit(a1), "reduce " + reduce + " wrote "
          + parts.get(reduce).size() + " records");
      if (wrote) {
        committer.commitTask(a1);
      }
      any = committer;
    }
    Map<String, String> absent = new TreeMap<>();
    good.keySet().forEach(k -> absent.put(k, null));
    assertStored(absent); // nothing before the job commits

    any.commitJob(job.context);

    assertStored(good);
    assertFalse(Files.exists(job.staging), "the staging directory is deleted after commit");
    assertNoBulkFilesOnTheBackends();
  }

  @Test
  void killedJob_afterItsReducesCommitted_leavesNothing() throws Exception {
    FakeJob job = new FakeJob();
    Map<String, String> records = records("killed/", 400, "v-");
    List<Map<String, String>> parts = job.byReduce(records);
    OutputCommitter any = null;
    for (int reduce = 0; reduce < parts.size(); reduce++) {
      TaskAttemptContext a = job.attempt(reduce, 0);
      any = job.write(a, parts.get(reduce));
      any.commitTask(a);
    }
    any.abortJob(job.context, JobStatus.State.KILLED);
    Map<String, String> absent = new TreeMap<>();
    records.keySet().forEach(k -> absent.put(k, null));
    assertStored(absent);
    assertFalse(Files.exists(job.staging));
    assertNoBulkFilesOnTheBackends();
  }

  private static void assertNoBulkFilesOnTheBackends() throws IOException {
    for (String id : List.of("b0", "b1", "b2")) {
      Path bulk = cluster.dataOf(id).resolve("bulk");
      if (Files.exists(bulk)) {
        try (var left = Files.list(bulk)) {
          assertEquals(List.of(), left.toList(), "bulk files left on " + id);
        }
      }
    }
  }

  private static void assertStored(Map<String, String> expected) throws IOException {
    try (FawnKvClient kv = client()) {
      List<byte[]> keys = new ArrayList<>();
      expected.keySet().forEach(k -> keys.add(bytes(k)));
      List<byte[]> values = kv.getAll(keys);
      int i = 0;
      for (Map.Entry<String, String> e : expected.entrySet()) {
        byte[] got = values.get(i++);
        if (e.getValue() == null) {
          assertNull(got, "key " + e.getKey() + " must be absent");
        } else {
          assertArrayEquals(bytes(e.getValue()), got, e.getKey());
        }
      }
    }
  }

  private static FawnKvClient client() throws IOException {
    return FawnKvClient.connect(cluster.frontEndAddresses(), Duration.ofSeconds(30),
        cluster.secret());
  }

  private static Map<String, String> records(String prefix, int count, String value) {
    Map<String, String> records = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      records.put(prefix + i, value + i + "-" + "v".repeat(i % 40));
    }
    return records;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
