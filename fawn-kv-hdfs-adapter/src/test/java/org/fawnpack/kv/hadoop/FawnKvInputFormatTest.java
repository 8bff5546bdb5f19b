package org.fawnpack.kv.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.KeyRange;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input format against a FAWN-KV cluster of child-JVM back-ends on loopback, read split by
 * split as map tasks do, with a model of what the clients wrote as the oracle: every entry
 * once, under a prefix too, with splits of arcs cut and merged; and a split whose tail is
 * SIGKILLed while it is read (last: it changes the cluster).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FawnKvInputFormatTest {
  private static final int KEYS = 20_000;

  @TempDir
  static Path dir;

  private static LoopbackCluster cluster;
  private static final Map<String, String> MODEL = new HashMap<>();

  @BeforeAll
  static void startAndLoad() throws Exception {
    cluster = LoopbackCluster.start(dir.resolve("kv"), 4, 1, Map.of());
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(30), cluster.secret())) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < KEYS; i++) {
        String key = (i % 4 == 0 ? "user/" : "page/") + i;
        String value = "v" + i + "-" + "x".repeat(900 + i % 200);
        keys.add(key.getBytes(StandardCharsets.UTF_8));
        values.add(value.getBytes(StandardCharsets.UTF_8));
        MODEL.put(key, value);
        if (keys.size() == 1000) {
          kv.putAll(keys, values);
          keys.clear();
          values.clear();
        }
      }
      for (int i = 0; i < KEYS; i += 13) {
        String key = (i % 4 == 0 ? "user/" : "page/") + i;
        kv.delete(key.getBytes(StandardCharsets.UTF_8));
        MODEL.remove(key);
      }
    }
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Job job(Map<String, String> settings) throws IOException {
    Configuration conf = new Configuration(false);
    conf.set("fawn.kv.zookeeper.quorum", cluster.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", cluster.secretFile().toString());
    settings.forEach(conf::set);
    Job job = Job.getInstance(conf);
    FawnKvInputFormat.setUp(job);
    return job;
  }

  /** Reads one split as a map does; checks progress goes up to 1. */
  private static void read(Job job, InputSplit split, Map<String, String> into)
      throws Exception {
    TaskAttemptContext task = new TaskAttemptContextImpl(job.getConfiguration(),
        new TaskAttemptID());
    try (RecordReader<BytesWritable, BytesWritable> reader =
        new FawnKvInputFormat().createRecordReader(split, task)) {
      reader.initialize(split, task);
      float progress = reader.getProgress();
      while (reader.nextKeyValue()) {
        put(into, reader.getCurrentKey(), reader.getCurrentValue());
        assertTrue(reader.getProgress() >= progress, "progress never goes back");
        progress = reader.getProgress();
      }
      assertEquals(1.0f, reader.getProgress(), 1e-6);
    }
  }

  private static void put(Map<String, String> into, BytesWritable key, BytesWritable value) {
    String k = new String(key.getBytes(), 0, key.getLength(), StandardCharsets.UTF_8);
    assertNull(into.put(k, new String(value.getBytes(), 0, value.getLength(),
        StandardCharsets.UTF_8)), k + " read twice");
  }

  @Test
  @Order(1)
  void defaultSplits_onePerTailHost_readEveryEntryOnce() throws Exception {
    Job job = job(Map.of());
    List<InputSplit> splits = new FawnKvInputFormat().getSplits(job);
    Ring ring = cluster.ring();
    long tailHosts = ring.chains().stream().map(c -> c.tail().host()).distinct().count();
    assertEquals(tailHosts, splits.size(), "small arcs merged by their tail's host: " + splits);
    Map<String, String> read = new HashMap<>();
    for (InputSplit split : splits) {
      FawnKvSplit s = (FawnKvSplit) split;
      for (KeyRange r : s.ranges()) {
        assertEquals(ring.chainFor(r.endInclusive()).tail().host(), s.getLocations()[0]);
      }
      read(job, split, read);
    }
    assertEquals(MODEL, read);
    long live = MODEL.entrySet().stream().mapToLong(e -> e.getKey().length()
        + e.getValue().length()).sum();
    long estimated = splits.stream().mapToLong(s -> ((FawnKvSplit) s).getLength()).sum();
    // Log bytes times live keys over records written: record headers add, tombstones (short
    // records counted as whole ones) take away.
    assertTrue(estimated > 0.75 * live && estimated < 1.5 * live, "estimated " + estimated
        + " live bytes of " + live + " (keys and values)");
  }

  @Test
  @Order(2)
  void smallSplitSize_arcsCut_andAKeyPrefix_onlyItsEntriesOnce() throws Exception {
    Job job = job(Map.of("fawn.kv.input.split-bytes", "1m", "fawn.kv.input.key-prefix",
        "user/"));
    List<InputSplit> splits = new FawnKvInputFormat().getSplits(job);
    Ring ring = cluster.ring();
    assertTrue(splits.stream().map(s -> ((FawnKvSplit) s).ranges()).anyMatch(r -> r.size() == 1
        && !ring.chainFor(r.get(0).endInclusive()).range().equals(r.get(0))),
        "an arc over 1 MiB (they average 1.3 MB) is cut: " + splits);
    Map<String, String> read = new HashMap<>();
    for (InputSplit split : splits) {
      read(job, split, read);
    }
    Map<String, String> users = new HashMap<>();
    MODEL.forEach((k, v) -> {
      if (k.startsWith("user/")) {
        users.put(k, v);
      }
    });
    assertEquals(users, read);
  }

  @Test
  @Order(3)
  void consistent_writesAfterSubmission_notSeen_readFromAnyMember() throws Exception {
    Job job = job(Map.of("fawn.kv.input.consistent", "true", "fawn.kv.input.page-bytes",
        "64k"));
    List<InputSplit> splits = new FawnKvInputFormat().getSplits(job);
    Map<String, String> atSubmission = Map.copyOf(MODEL);
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(30), cluster.secret())) {
      for (int i = 1; i < KEYS; i += 7) {
        String key = (i % 4 == 0 ? "user/" : "page/") + i;
        if (i % 2 == 0) {
          kv.delete(key.getBytes(StandardCharsets.UTF_8));
          MODEL.remove(key);
        } else {
          kv.put(key.getBytes(StandardCharsets.UTF_8), "after".getBytes(StandardCharsets.UTF_8));
          MODEL.put(key, "after");
        }
      }
    }
    Map<String, String> read = new HashMap<>();
    for (InputSplit split : splits) {
      read(job, split, read);
    }
    assertEquals(atSubmission, read);
  }

  @Test
  @Order(4)
  void noSecretInTheCredentials_refusedByName() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fawn.kv.zookeeper.quorum", cluster.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", dir.resolve("no-such-secret").toString());
    Job job = Job.getInstance(conf);
    IOException e = assertThrows(IOException.class, () -> FawnKvInputFormat.setUp(job));
    assertTrue(e.getMessage().contains("no-such-secret"), e.getMessage());
  }

  @Test
  @Order(5)
  void tailKilledWhileItsSplitIsRead_everyEntryStillOnce() throws Exception {
    Job job = job(Map.of("fawn.kv.input.page-bytes", "64k"));
    List<InputSplit> splits = new FawnKvInputFormat().getSplits(job);
    FawnKvSplit first = (FawnKvSplit) splits.get(0);
    String tailHost = first.getLocations()[0];
    String tailId = cluster.ring().members().stream().filter(m -> m.host().equals(tailHost))
        .findFirst().orElseThrow().id();

    Map<String, String> read = new HashMap<>();
    Counters counters = new Counters();
    TaskAttemptContext task = new TaskAttemptContextImpl(job.getConfiguration(),
        new TaskAttemptID(), new StatusReporter() {
          @Override
          public Counter getCounter(Enum<?> name) {
            return counters.findCounter(name);
          }

          @Override
          public Counter getCounter(String group, String name) {
            return counters.findCounter(group, name);
          }

          @Override
          public void progress() {}

          @Override
          public float getProgress() {
            return 0;
          }

          @Override
          public void setStatus(String status) {}
        });
    try (RecordReader<BytesWritable, BytesWritable> reader =
        new FawnKvInputFormat().createRecordReader(first, task)) {
      reader.initialize(first, task);
      for (int i = 0; i < 500 && reader.nextKeyValue(); i++) {
        put(read, reader.getCurrentKey(), reader.getCurrentValue());
      }
      cluster.killBackend(tailId);
      while (reader.nextKeyValue()) {
        put(read, reader.getCurrentKey(), reader.getCurrentValue());
      }
      assertTrue(counters.findCounter(FawnKvInputCounter.SCAN_PAGES_ASKED_AGAIN).getValue()
          >= 1, "the killed tail was asked for a page");
      assertTrue(counters.findCounter(FawnKvInputCounter.SCAN_PAGES).getValue() > 1);
    }
    for (InputSplit split : splits.subList(1, splits.size())) {
      read(job, split, read);
    }
    assertEquals(MODEL, read);
  }
}
