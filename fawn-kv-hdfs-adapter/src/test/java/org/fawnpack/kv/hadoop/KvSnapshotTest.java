package org.fawnpack.kv.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Offline snapshots: {@code fawn kv snapshot} against a FAWN-KV cluster of child-JVM back-ends
 * on loopback while a writer goes on, then the snapshot read split by split as map tasks do,
 * with the cluster running and after it is stopped. Oracles: a model of what the clients wrote
 * before the snapshot, and the order in which one writer put new keys during it (each arc is
 * copied as of one instant, so the keys it holds must be a prefix of that arc's writes).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KvSnapshotTest {
  @TempDir
  static Path dir;
  private static LoopbackCluster cluster;
  private static Ring ring;
  private static final Map<String, String> MODEL = new HashMap<>();
  private static Map<String, String> firstRead;

  @BeforeAll
  static void startAndLoad() throws Exception {
    cluster = LoopbackCluster.start(dir.resolve("kv"), 4, 1, Map.of());
    try (FawnKvClient kv = client()) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < 8_000; i++) {
        String key = (i % 3 == 0 ? "user/" : "item/") + i;
        String value = "v" + i + "-" + "x".repeat(i % 700);
        keys.add(bytes(key));
        values.add(bytes(value));
        MODEL.put(key, value);
      }
      kv.putAll(keys, values);
      for (int i = 0; i < 8_000; i += 11) { // overwrites and deletes, so dead records exist
        String key = (i % 3 == 0 ? "user/" : "item/") + i;
        if (i % 2 == 0) {
          kv.delete(bytes(key));
          MODEL.remove(key);
        } else {
          kv.put(bytes(key), bytes("second " + i));
          MODEL.put(key, "second " + i);
        }
      }
    }
    ring = cluster.ring();
  }

  @AfterAll
  static void stop() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static FawnKvClient client() throws IOException {
    return FawnKvClient.connect(cluster.frontEndAddresses(), Duration.ofSeconds(30),
        cluster.secret());
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A configuration that names no FAWN-KV cluster: reading a snapshot needs none. */
  private static Configuration offline() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    return conf;
  }

  private static Configuration conf() {
    Configuration conf = offline();
    conf.set("fawn.kv.zookeeper.quorum", cluster.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", cluster.secretFile().toString());
    return conf;
  }

  private static int snapshot(Configuration conf, String target, ByteArrayOutputStream err,
      String... args) throws Exception {
    KvSnapshotTool tool = new KvSnapshotTool(new PrintStream(new ByteArrayOutputStream(), true,
        StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    tool.setConf(conf);
    return tool.run(args.length > 0 ? args : new String[] {"--to", target});
  }

  /** Every split of the snapshot in {@code snapshot}, read as map tasks do. */
  private static Map<String, String> readSnapshot(Path snapshot, Configuration conf)
      throws Exception {
    Job job = Job.getInstance(conf);
    FawnKvSnapshotInputFormat.setUp(job, new org.apache.hadoop.fs.Path(snapshot.toUri()));
    FawnKvSnapshotInputFormat format = new FawnKvSnapshotInputFormat();
    List<InputSplit> splits = format.getSplits(job);
    List<org.fawnpack.kv.store.KeyRange> read = new ArrayList<>();
    splits.forEach(s -> ((SnapshotSplit) s).arcs().forEach(a -> read.add(a.range())));
    read.sort(java.util.Comparator.comparing(r -> Long.toUnsignedString(r.endInclusive())));
    List<org.fawnpack.kv.store.KeyRange> arcs = new ArrayList<>(ring.chains().stream()
        .map(Chain::range).toList());
    arcs.sort(java.util.Comparator.comparing(r -> Long.toUnsignedString(r.endInclusive())));
    assertEquals(arcs, read, "every arc in one split");
    Map<String, String> entries = new HashMap<>();
    for (InputSplit split : splits) {
      assertTrue(split.getLength() > 0, "no split of length 0: " + split);
      assertTrue(split.getLocations().length > 0, "located: " + split);
      TaskAttemptContext task = new TaskAttemptContextImpl(job.getConfiguration(),
          new TaskAttemptID());
      try (RecordReader<BytesWritable, BytesWritable> reader =
          format.createRecordReader(split, task)) {
        reader.initialize(split, task);
        float progress = reader.getProgress();
        while (reader.nextKeyValue()) {
          String k = new String(reader.getCurrentKey().copyBytes(), StandardCharsets.UTF_8);
          assertNull(entries.put(k, new String(reader.getCurrentValue().copyBytes(),
              StandardCharsets.UTF_8)), k + " read twice");
          assertTrue(reader.getProgress() >= progress, "progress never goes back");
          progress = reader.getProgress();
        }
        assertEquals(1.0f, reader.getProgress(), 1e-6);
      }
    }
    return entries;
  }

  @Test
  @Order(1)
  void refusals_nameWhatIsWrong() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path used = Files.createDirectories(dir.resolve("used"));
    Files.writeString(used.resolve("something"), "x");
    assertEquals(1, snapshot(conf(), used.toString(), err));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("not an empty directory"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(2, snapshot(conf(), null, err, "--to"));
    Configuration noCluster = conf();
    noCluster.unset("fawn.kv.zookeeper.quorum");
    assertEquals(2, snapshot(noCluster, dir.resolve("never").toString(), err));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("fawn.kv.zookeeper.quorum"));
    IOException e = assertThrows(IOException.class, () -> FawnKvSnapshotInputFormat.setUp(
        Job.getInstance(conf()), new org.apache.hadoop.fs.Path(used.toUri())));
    assertTrue(e.getMessage().contains("MANIFEST is missing"), e.getMessage());
  }

  @Test
  @Order(2)
  void snapshotWhileAWriterGoesOn_eachArcAsOfOneInstant() throws Exception {
    AtomicBoolean done = new AtomicBoolean();
    List<String> written = new ArrayList<>(); // in the order the puts were acknowledged
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      try (FawnKvClient kv = client()) {
        for (int i = 0; i < 50_000 && !done.get(); i++) {
          String key = String.format("w/%06d", i);
          kv.put(bytes(key), bytes("during " + i));
          synchronized (written) {
            written.add(key);
          }
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try {
      exit = snapshot(conf(), dir.resolve("snap").toString(), err);
    } finally {
      done.set(true);
      writer.join();
    }
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));

    firstRead = readSnapshot(dir.resolve("snap"), conf());
    Map<String, String> before = new HashMap<>(firstRead);
    before.keySet().removeIf(k -> k.startsWith("w/"));
    assertEquals(MODEL, before, "everything written before the snapshot, as it was");
    for (Chain chain : ring.chains()) {
      List<String> arcWrites = written.stream()
          .filter(k -> chain.range().contains(ring.hash().position(bytes(k)))).toList();
      int held = (int) arcWrites.stream().filter(firstRead::containsKey).count();
      assertEquals(arcWrites.subList(0, held), arcWrites.stream().filter(firstRead::containsKey)
          .toList(), "arc " + chain.range() + " holds a prefix of its writes");
    }
    assertTrue(written.size() > 0, "the writer ran during the snapshot");
  }

  @Test
  @Order(3)
  void copyAlteredAfterwards_failsTheMapNamingTheFile() throws Exception {
    Path copy = dir.resolve("altered");
    Files.createDirectories(copy);
    try (var files = Files.list(dir.resolve("snap"))) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!f.getFileName().toString().startsWith(".")) { // Hadoop's .crc side files
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
    }
    SnapshotManifest manifest = SnapshotManifest.read(new org.apache.hadoop.fs.Path(
        copy.toUri()), conf());
    SnapshotManifest.Arc largest = manifest.arcs().stream()
        .max(java.util.Comparator.comparingLong(SnapshotManifest.Arc::logBytes)).orElseThrow();
    Path log = copy.resolve(largest.file());
    byte[] content = Files.readAllBytes(log);
    content[content.length / 2] ^= 0x40;
    Files.write(log, content);
    IOException e = assertThrows(IOException.class, () -> readSnapshot(copy, conf()));
    assertTrue(e.getMessage().contains(largest.file()), e.getMessage());
  }

  @Test
  @Order(4)
  void withEveryNodeStopped_theSnapshotReadsTheSame() throws Exception {
    cluster.close();
    cluster = null;
    Configuration smallSplits = offline();
    smallSplits.set("fawn.kv.input.split-bytes", "1m"); // arcs packed differently: same entries
    assertEquals(firstRead, readSnapshot(dir.resolve("snap"), smallSplits));
  }
}
