package org.fawnpack.demo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.fawnpack.jobs.kv.KvCount;
import org.fawnpack.jobs.kv.KvLoad;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.hadoop.KvSnapshotTool;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.JobOutputs;

/**
 * The FAWN-KV jobs for {@code ./fawn demo --kv}, on the embedded cluster against a FAWN-KV
 * cluster on loopback (4 back-ends as child JVMs, chains of 3), each row checked: kvload (a
 * bulk load) of generated lines, kvcount against the counts made while writing the lines, a
 * snapshot onto HDFS, and kvcount over the snapshot against the online kvcount's lines.
 */
final class KvJobsDemo {
  /** Lines kvload loads: 20,000 of about 110 bytes. */
  static final int LINES = 20_000;
  private static final String[] PREFIXES = {"user", "item", "order"};
  private static final int VALUE_BYTES = 100;

  private final DemoJobRunner runner;
  private final EmbeddedCluster cluster;
  private final PrintStream out;
  private final int lines;
  private final Path dir;

  KvJobsDemo(DemoJobRunner runner, EmbeddedCluster cluster, PrintStream out, Path dir) {
    this.runner = runner;
    this.cluster = cluster;
    this.out = out;
    this.lines = LINES;
    this.dir = dir;
  }

  List<JobResult> run() throws Exception {
    List<JobResult> rows = new ArrayList<>();
    out.printf("Starting a FAWN-KV cluster on loopback: ZooKeeper, 4 back-ends (child JVMs),"
        + " 1 front-end ...%n");
    try (LoopbackCluster kv = LoopbackCluster.start(dir, 4, 1, Map.of())) {
      String[] cluster = {"-D", "fawn.kv.zookeeper.quorum=" + kv.zooKeeperQuorum(), "-D",
          "fawn.kv.secret-file=" + kv.secretFile()};
      Map<String, String> expected = writeLines("/demo/in/kv");
      JobResult load = runner.run(new KvLoad(), WorkUnit.INPUT_RECORDS,
          with(cluster, "/demo/in/kv"));
      rows.add(load.succeeded() ? load.checked(String.format(Locale.ROOT,
          "%,d lines loaded at job commit", lines)) : load);
      JobResult online = runner.run(new KvCount(), WorkUnit.INPUT_RECORDS,
          with(cluster, "/demo/out/kvcount"));
      Map<String, Long> counted = JobOutputs.read(cluster().fileSystem(),
          new org.apache.hadoop.fs.Path("/demo/out/kvcount"));
      rows.add(check(online, counted, asOutput(expected), "the lines' own counts"));

      KvSnapshotTool snapshot = new KvSnapshotTool();
      snapshot.setConf(withCluster(kv));
      out.printf("%nRunning fawn kv snapshot --to /demo/kv-snapshot ...%n");
      if (snapshot.run(new String[] {"--to", "/demo/kv-snapshot"}) != 0) {
        throw new IllegalStateException("the snapshot failed: see above");
      }
      JobResult offline = runner.run(new KvCount(), WorkUnit.INPUT_RECORDS, "--snapshot",
          "/demo/kv-snapshot", "/demo/out/kvcount-snapshot");
      rows.add(check(offline.named("kvcount snap"), JobOutputs.read(cluster().fileSystem(),
          new org.apache.hadoop.fs.Path("/demo/out/kvcount-snapshot")), counted,
          "the online kvcount (read from the snapshot on HDFS)"));
    }
    return rows;
  }

  private EmbeddedCluster cluster() {
    return cluster;
  }

  private org.apache.hadoop.conf.Configuration withCluster(LoopbackCluster kv) {
    org.apache.hadoop.conf.Configuration conf = cluster.clientConf();
    conf.set("fawn.kv.zookeeper.quorum", kv.zooKeeperQuorum());
    conf.set("fawn.kv.secret-file", kv.secretFile().toString());
    return conf;
  }

  private static String[] with(String[] options, String... args) {
    List<String> all = new ArrayList<>(List.of(options));
    all.addAll(List.of(args));
    return all.toArray(String[]::new);
  }

  /** Writes the lines in two files; returns prefix → "records TAB bytes", as kvcount counts. */
  private Map<String, String> writeLines(String dirName) throws Exception {
    FileSystem fs = cluster.fileSystem();
    Map<String, long[]> counts = new TreeMap<>();
    String value = "v".repeat(VALUE_BYTES);
    for (int file = 0; file < 2; file++) {
      StringBuilder text = new StringBuilder();
      for (int i = file; i < lines; i += 2) {
        String key = PREFIXES[i % PREFIXES.length] + "/" + i;
        text.append(key).append('\t').append(value).append('\n');
        long[] c = counts.computeIfAbsent(PREFIXES[i % PREFIXES.length], p -> new long[2]);
        c[0]++;
        c[1] += key.length() + VALUE_BYTES;
      }
      try (FSDataOutputStream o = fs.create(new org.apache.hadoop.fs.Path(dirName,
          "part" + file))) {
        o.write(text.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
    out.printf("Wrote %,d key<TAB>value lines to %s%n", lines, dirName);
    Map<String, String> expected = new TreeMap<>();
    counts.forEach((p, c) -> expected.put(p, c[0] + "\t" + c[1]));
    return expected;
  }

  /** kvcount's lines read as JobOutputs reads them (the last field is the count). */
  private static Map<String, Long> asOutput(Map<String, String> expected) {
    Map<String, Long> output = new TreeMap<>();
    expected.forEach((prefix, line) -> {
      int tab = line.indexOf('\t');
      output.put(prefix + "\t" + line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
    });
    return output;
  }

  private JobResult check(JobResult row, Map<String, Long> got, Map<String, Long> expected,
      String against) {
    if (!row.succeeded()) {
      return row;
    }
    if (!got.equals(expected)) {
      return row.failed("counted " + got + ", expected " + expected + " (" + against + ")");
    }
    out.printf("kvcount's lines equal %s (%d prefixes).%n", against, got.size());
    return row.checked("same lines as " + against);
  }
}
