package org.fawnpack.jobs.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.hadoop.FawnKvInputCounter;
import org.fawnpack.kv.hadoop.FawnKvOutputCounter;
import org.fawnpack.kv.hadoop.KvSnapshotTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kvcount and kvload in the local job runner over a FAWN-KV cluster of child-JVM back-ends:
 * kvcount against the count a plain loop makes of what the client wrote (String.indexOf for
 * the prefix); kvload against the client's gets of the lines a plain split parses.
 */
class KvJobsLocalTest {
  @TempDir
  static Path tmp;
  private static LoopbackCluster cluster;
  private static final Map<String, String> WRITTEN = new TreeMap<>();

  @BeforeAll
  static void startAndLoad() throws Exception {
    cluster = LoopbackCluster.start(tmp.resolve("kv"), 3, 1, Map.of());
    String[] prefixes = {"user/", "order/", "order:x/", "", "item/a/"};
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(30), cluster.secret())) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < 3_000; i++) {
        String key = prefixes[i % prefixes.length] + "k" + i;
        String value = "v".repeat(i % 50);
        keys.add(key.getBytes(StandardCharsets.UTF_8));
        values.add(value.getBytes(StandardCharsets.UTF_8));
        WRITTEN.put(key, value);
      }
      kv.putAll(keys, values);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static Configuration conf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    conf.set("fawn.kv.zookeeper.quorum", cluster.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", cluster.secretFile().toString());
    return conf;
  }

  /** prefix TAB records TAB bytes, as a plain loop counts them. */
  private static List<String> oracle(String delimiter) {
    Map<String, long[]> counts = new TreeMap<>();
    WRITTEN.forEach((k, v) -> {
      int at = k.indexOf(delimiter);
      long[] c = counts.computeIfAbsent(at < 0 ? "" : k.substring(0, at), p -> new long[2]);
      c[0]++;
      c[1] += k.getBytes(StandardCharsets.UTF_8).length + v.getBytes(StandardCharsets.UTF_8)
          .length;
    });
    List<String> lines = new ArrayList<>();
    counts.forEach((p, c) -> lines.add(p + "\t" + c[0] + "\t" + c[1]));
    return lines;
  }

  private static List<String> output(Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path part : files.filter(p -> p.getFileName().toString().startsWith("part-"))
          .toList()) {
        lines.addAll(Files.readAllLines(part));
      }
    }
    lines.sort(null);
    return lines;
  }

  @Test
  void kvcount_perPrefix_asAPlainLoopCounts() throws Exception {
    Path out = tmp.resolve("counts");
    KvCount tool = new KvCount();
    assertEquals(0, ToolRunner.run(conf(), tool, new String[] {out.toString()}));
    assertEquals(oracle("/"), output(out));
    var counters = tool.lastJob().getCounters();
    assertEquals(WRITTEN.size(), counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
    long bytes = WRITTEN.entrySet().stream().mapToLong(e -> e.getKey().length()
        + e.getValue().length()).sum();
    assertEquals(bytes, counters.findCounter(FawnKvInputCounter.BYTES_READ).getValue());
  }

  @Test
  void kvcount_withAnotherDelimiter() throws Exception {
    Path out = tmp.resolve("by-colon");
    assertEquals(0, ToolRunner.run(conf(), new KvCount(), new String[] {"--delimiter", ":",
        out.toString()}));
    assertEquals(oracle(":"), output(out));
  }

  @Test
  void kvload_bulkAttachAndPuts_linesIntoTheStore_asAPlainSplitParsesThem() throws Exception {
    for (String mode : List.of("bulk", "puts", "attach")) {
      Path input = tmp.resolve("lines-" + mode);
      Files.createDirectories(input);
      Map<String, String> expected = new TreeMap<>();
      for (int file = 0; file < 2; file++) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 1_250; i++) {
          String key = "loaded/" + mode + "/" + file + "/" + i;
          String value = "value " + i + (i % 10 == 0 ? "\twith a tab" : "");
          lines.add(key + "\t" + value);
          expected.put(key, value);
        }
        lines.add("no separator on this line");
        lines.add("\tan empty key");
        Files.write(input.resolve("part" + file + ".txt"), lines);
      }
      Configuration conf = conf();
      Path staging = tmp.resolve("staging");
      conf.set("fawn.kv.output.staging-dir", staging.toString());
      KvLoad tool = new KvLoad();
      String[] args = mode.equals("bulk") ? new String[] {input.toString()}
          : new String[] {"--" + mode, input.toString()};
      assertEquals(0, ToolRunner.run(conf, tool, args));
      var counters = tool.lastJob().getCounters();
      assertEquals(4, counters.findCounter(KvLoad.KvLoadCounter.SKIPPED_LINES).getValue());
      assertEquals(expected.size(), counters.findCounter(mode.equals("puts")
          ? FawnKvOutputCounter.RECORDS_PUT : FawnKvOutputCounter.RECORDS_STAGED).getValue());
      if (Files.exists(staging)) {
        try (Stream<Path> left = Files.list(staging)) {
          assertEquals(List.of(), left.toList(), "staging directories left after commit");
        }
      }

      try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
          Duration.ofSeconds(30), cluster.secret())) {
        List<byte[]> keys = expected.keySet().stream()
            .map(k -> k.getBytes(StandardCharsets.UTF_8)).toList();
        List<byte[]> values = kv.getAll(keys);
        int i = 0;
        for (String value : expected.values()) {
          assertEquals(value, new String(values.get(i++), StandardCharsets.UTF_8));
        }
        assertEquals(null, kv.get("no separator on this line".getBytes(StandardCharsets.UTF_8)));
      }
      WRITTEN.putAll(expected); // the store holds them now, for kvcount's oracle
    }
  }

  @Test
  void kvload_seqfile_pairsAsTheyAre() throws Exception {
    Path input = tmp.resolve("pairs.seq");
    Map<String, String> expected = new TreeMap<>();
    try (SequenceFile.Writer writer = SequenceFile.createWriter(conf(),
        SequenceFile.Writer.file(new org.apache.hadoop.fs.Path(input.toUri())),
        SequenceFile.Writer.keyClass(BytesWritable.class),
        SequenceFile.Writer.valueClass(BytesWritable.class))) {
      for (int i = 0; i < 1_500; i++) {
        String key = "seq/" + i;
        String value = "pair\t" + i + "z".repeat(i % 30); // a tab in it: kept as it is
        writer.append(new BytesWritable(key.getBytes(StandardCharsets.UTF_8)),
            new BytesWritable(value.getBytes(StandardCharsets.UTF_8)));
        expected.put(key, value);
      }
    }
    assertEquals(0, ToolRunner.run(conf(), new KvLoad(), new String[] {"--seqfile",
        input.toString()}));
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(30), cluster.secret())) {
      List<byte[]> values = kv.getAll(expected.keySet().stream()
          .map(k -> k.getBytes(StandardCharsets.UTF_8)).toList());
      int i = 0;
      for (String value : expected.values()) {
        assertEquals(value, new String(values.get(i++), StandardCharsets.UTF_8));
      }
    }
    WRITTEN.putAll(expected);
  }

  @Test
  void kvexport_sequenceFiles_andText_holdEveryEntryOnce() throws Exception {
    Path out = tmp.resolve("export");
    assertEquals(0, ToolRunner.run(conf(), new KvExport(), new String[] {out.toString()}));
    Map<String, String> exported = new TreeMap<>();
    Configuration conf = conf();
    try (Stream<Path> files = Files.list(out)) {
      for (Path part : files.filter(p -> p.getFileName().toString().startsWith("part-"))
          .toList()) {
        try (SequenceFile.Reader reader = new SequenceFile.Reader(conf,
            SequenceFile.Reader.file(new org.apache.hadoop.fs.Path(part.toUri())))) {
          BytesWritable key = new BytesWritable();
          BytesWritable value = new BytesWritable();
          while (reader.next(key, value)) {
            String k = new String(key.copyBytes(), StandardCharsets.UTF_8);
            assertEquals(null, exported.put(k, new String(value.copyBytes(),
                StandardCharsets.UTF_8)), k + " exported twice");
          }
        }
      }
    }
    assertEquals(WRITTEN, exported);

    Path text = tmp.resolve("export-text");
    assertEquals(0, ToolRunner.run(conf(), new KvExport(), new String[] {"--text",
        text.toString()}));
    List<String> expected = new ArrayList<>();
    WRITTEN.forEach((k, v) -> expected.add(k + "\t" + v));
    expected.sort(null);
    assertEquals(expected, output(text));
  }

  @Test
  void snapshot_thenKvcountAndKvexportOffline_giveWhatTheOnlineJobsGive() throws Exception {
    Path snapshot = tmp.resolve("snapshot");
    KvSnapshotTool snap = new KvSnapshotTool();
    snap.setConf(conf());
    assertEquals(0, snap.run(new String[] {"--to", snapshot.toString()}));
    List<String> expected = oracle("/");

    Path online = tmp.resolve("counts-online");
    assertEquals(0, ToolRunner.run(conf(), new KvCount(), new String[] {online.toString()}));
    Configuration offline = conf();
    offline.unset("fawn.kv.zookeeper.quorum"); // a snapshot needs no cluster
    Path counted = tmp.resolve("counts-of-snapshot");
    assertEquals(0, ToolRunner.run(offline, new KvCount(), new String[] {"--snapshot",
        snapshot.toString(), counted.toString()}));
    assertEquals(expected, output(online));
    assertEquals(expected, output(counted));

    Path text = tmp.resolve("export-of-snapshot");
    assertEquals(0, ToolRunner.run(offline, new KvExport(), new String[] {"--snapshot",
        snapshot.toString(), "--text", text.toString()}));
    List<String> lines = new ArrayList<>();
    WRITTEN.forEach((k, v) -> lines.add(k + "\t" + v));
    lines.sort(null);
    assertEquals(lines, output(text));
  }

  @Test
  void restore_ofASnapshotIntoAnEmptyCluster_equalsTheClusterItCameFrom() throws Exception {
    Path snapshot = tmp.resolve("snapshot-to-restore");
    KvSnapshotTool snap = new KvSnapshotTool();
    snap.setConf(conf());
    assertEquals(0, snap.run(new String[] {"--to", snapshot.toString()}));
    Path source = tmp.resolve("export-of-the-source");
    assertEquals(0, ToolRunner.run(conf(), new KvExport(), new String[] {"--text",
        source.toString()}));
    // Another cluster: another ring key and ring, so every key is placed anew.
    try (LoopbackCluster empty = LoopbackCluster.start(tmp.resolve("kv-restored"), 3, 1,
        Map.of())) {
      Configuration target = conf();
      target.set("fawn.kv.zookeeper.quorum", empty.zooKeeperQuorum());
      target.set("fawn.kv.secret-file", empty.secretFile().toString());
      target.set("fawn.kv.output.staging-dir", tmp.resolve("staging-restore").toString());
      KvLoad restore = new KvLoad();
      assertEquals(0, ToolRunner.run(target, restore, new String[] {"--snapshot",
          snapshot.toString()}));
      Path restored = tmp.resolve("export-of-the-restored");
      assertEquals(0, ToolRunner.run(target, new KvExport(), new String[] {"--text",
          restored.toString()}));
      List<String> expected = output(source);
      assertTrue(expected.size() >= WRITTEN.size(), "the source holds what was written");
      assertEquals(expected, output(restored));
    }
  }

  @Test
  void kvcount_badArguments_exitTwo() throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertEquals(2, ToolRunner.run(conf(), new KvCount(), new String[0]));
      assertEquals(2, ToolRunner.run(conf(), new KvCount(), new String[] {"--delimiter"}));
      assertEquals(2, ToolRunner.run(conf(), new KvCount(), new String[] {"--snapshot",
          "--delimiter", ":", tmp.resolve("never").toString()}));
      assertEquals(2, ToolRunner.run(conf(), new KvLoad(), new String[] {"--seqfile",
          "--separator", ":", tmp.toString()}));
      Configuration noCluster = conf();
      noCluster.unset("fawn.kv.zookeeper.quorum");
      assertEquals(2, ToolRunner.run(noCluster, new KvCount(),
          new String[] {tmp.resolve("never").toString()}));
    } finally {
      System.setErr(err);
    }
    String printed = captured.toString(StandardCharsets.UTF_8);
    assertTrue(printed.contains("missing output path"), printed);
    assertTrue(printed.contains("--snapshot wants the directory of a snapshot"), printed);
    assertTrue(printed.contains("--separator is for text lines, not --seqfile"), printed);
    assertTrue(printed.contains("fawn.kv.zookeeper.quorum"), printed);
  }
}
