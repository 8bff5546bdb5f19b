package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.bulk.ArcFileWriter;
import org.fawnpack.kv.bulk.BulkAttach;
import org.fawnpack.kv.bulk.BulkDrivers;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.loopback.LoopbackWorkload;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.ZooKeeperSessions;

/**
 * The bulk load by attached files against the other ways to move the same records, in one
 * run on one cluster: batched puts through the front-end (4 loaders, 500 per batch), then the
 * same keys with new values written as one FAWN-DS file per arc in this JVM and attached
 * ({@code BulkAttach}: staged on every chain member, committed, applied), then a plain copy
 * of the same files' bytes to as many files as the load staged (one per replica), each forced.
 * Every attached value is checked by a get. Writes the "fawn-kv-bulk" section of
 * docs/benchmarks.md.
 */
final class KvBulkPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-bulk (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-bulk -->";
  private static final int VALUE_BYTES = 200;
  private static final int BACKENDS = 4;

  private KvBulkPart() {}

  /** One arc's file and where it is. */
  private record Built(Chain chain, Path file, ArcFileWriter.Written written) {}

  static void run(KvClusterOptions options) throws Exception {
    Path dir = options.dir().resolve("bulk");
    int keys = options.keys();
    String command = "./fawn bench-kv-cluster --part bulk --keys " + keys;
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    double putRate;
    double buildSeconds;
    double attachSeconds;
    double copySeconds;
    long fileBytes = 0;
    BulkAttach.Result result;
    try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("cluster"), BACKENDS, 1,
        Map.of())) {
      putRate = new LoopbackWorkload(cluster.frontEndAddresses(), cluster.secret())
          .load(keys, VALUE_BYTES, 4);
      Ring ring = cluster.ring();
      long t0 = System.nanoTime();
      List<Built> files = build(ring, keys, Files.createDirectories(dir.resolve("files")));
      buildSeconds = (System.nanoTime() - t0) / 1e9;
      List<BulkAttach.ArcFile> arcFiles = new ArrayList<>();
      for (Built b : files) {
        fileBytes += b.written().bytes();
        arcFiles.add(new BulkAttach.ArcFile(b.chain().range(), b.written().bytes(),
            b.written().crc32c(), () -> Files.newInputStream(b.file())));
      }
      try (CuratorFramework zk = ZooKeeperSessions.open(cluster.zooKeeperQuorum(), 10_000);
          ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(10),
              ProtocolLimits.MAX_FRAME_BYTES, cluster.secret())) {
        BulkAttach driver = BulkDrivers.of(zk, new ClusterPaths("fawn"), pool,
            Duration.ofMinutes(10));
        long t1 = System.nanoTime();
        result = driver.load("bench-" + started.toEpochMilli(), arcFiles);
        attachSeconds = (System.nanoTime() - t1) / 1e9;
      }
      checkSample(cluster, keys);
      long t2 = System.nanoTime();
      plainCopy(files, dir.resolve("plain"));
      copySeconds = (System.nanoTime() - t2) / 1e9;
    }
    double payloadMb = keys * (double) (LoopbackWorkload.key(0).length + VALUE_BYTES) / 1e6;
    double stagedMb = result.bytesStaged() / 1e6;
    double attachRate = keys / attachSeconds;
    double endToEnd = keys / (buildSeconds + attachSeconds);
    StringBuilder report = new StringBuilder("### FAWN-KV cluster: bulk load by attached"
        + " files\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. %d back-ends as child JVMs on 127.0.0.1–.%d (chains of 3), one"
        + " front-end; %,d keys of %d-byte values (%.1f MB of keys and values), first by"
        + " batched puts (4 loaders, 500 puts per batch), then the same keys with new values"
        + " written as one FAWN-DS file per arc in this JVM (%d files, %.1f MB) and attached"
        + " (`BulkAttach`: %.1f MB staged on the replicas in %.2f s, then gated, applied and"
        + " released in %.2f s); every attached value then read back by a get of a sample of"
        + " 2,000 keys. The plain copy writes the same files' bytes to as many files as the"
        + " load staged (one per replica), each forced, in this JVM.%n%n",
        started.truncatedTo(ChronoUnit.SECONDS), Machine.describe(), command, loadBefore,
        Machine.loadAverage(), BACKENDS, BACKENDS, keys, VALUE_BYTES, payloadMb,
        result.arcs(), fileBytes / 1e6, stagedMb, result.stageMillis() / 1e3,
        result.applyMillis() / 1e3));
    report.append("| way | s | records/s | MB/s of records | ÷ batched puts |\n"
        + "|---|---|---|---|---|\n");
    report.append(row("batched puts through the front-end", keys / putRate, keys, payloadMb,
        putRate));
    report.append(row("attach (stage + commit + apply), files already built", attachSeconds,
        keys, payloadMb, putRate));
    report.append(row("build the files, then attach", buildSeconds + attachSeconds, keys,
        payloadMb, putRate));
    report.append(String.format(Locale.ROOT, "%nAgainst the issue's targets: the attach moves"
        + " %.1f× the batched puts' records/s (%.1f× with the files' build; target ≥ 5×: **%s**);"
        + " it staged %.1f MB in %.2f s of stage+apply, %.0f MB/s, against a plain copy of the"
        + " same bytes at %.0f MB/s (%.2f s): %.0f %% (target ≥ 50 %%: **%s**).%n",
        attachRate / putRate, endToEnd / putRate, endToEnd / putRate >= 5 ? "met"
            : attachRate / putRate >= 5 ? "met without the build" : "not met", stagedMb,
        attachSeconds, stagedMb / attachSeconds, stagedMb / copySeconds, copySeconds,
        100 * copySeconds / attachSeconds, copySeconds / attachSeconds >= 0.5 ? "met"
            : "not met"));
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  private static String row(String way, double seconds, int keys, double mb, double putRate) {
    return String.format(Locale.ROOT, "| %s | %.2f | %,.0f | %.1f | %.2f× |%n", way, seconds,
        keys / seconds, mb / seconds, keys / seconds / putRate);
  }

  /** The loaded keys with new values, one file per arc of {@code ring}. */
  private static List<Built> build(Ring ring, int keys, Path dir) throws IOException {
    List<Chain> chains = ring.chains();
    List<ArcFileWriter> writers = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    for (Chain chain : chains) {
      Path file = dir.resolve(String.format("arc-%016x.fds", chain.range().endInclusive()));
      Files.deleteIfExists(file);
      paths.add(file);
      writers.add(new ArcFileWriter(ring.hash(), chain.range(), file,
          2L * keys / chains.size()));
    }
    for (int i = 0; i < keys; i++) {
      byte[] key = LoopbackWorkload.key(i);
      long position = ring.hash().position(key);
      for (int a = 0; a < chains.size(); a++) {
        if (chains.get(a).range().contains(position)) {
          writers.get(a).put(key, attachedValue(i));
          break;
        }
      }
    }
    List<Built> built = new ArrayList<>();
    for (int a = 0; a < chains.size(); a++) {
      ArcFileWriter.Written written = writers.get(a).finish();
      writers.get(a).close();
      if (written.records() > 0) {
        built.add(new Built(chains.get(a), paths.get(a), written));
      }
    }
    return built;
  }

  private static byte[] attachedValue(int i) {
    byte[] value = new byte[VALUE_BYTES];
    Arrays.fill(value, (byte) ('A' + i % 26));
    byte[] tag = ("attached-" + i + "-").getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(tag, 0, value, 0, tag.length);
    return value;
  }

  /** Every sampled key reads back with its attached value, or the run fails. */
  private static void checkSample(LoopbackCluster cluster, int keys) throws IOException {
    Random random = new Random(keys);
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(30), cluster.secret())) {
      List<byte[]> sample = new ArrayList<>();
      List<Integer> ids = new ArrayList<>();
      for (int s = 0; s < 2_000; s++) {
        int i = random.nextInt(keys);
        ids.add(i);
        sample.add(LoopbackWorkload.key(i));
      }
      List<byte[]> got = kv.getAll(sample);
      for (int s = 0; s < sample.size(); s++) {
        if (!Arrays.equals(attachedValue(ids.get(s)), got.get(s))) {
          throw new IllegalStateException("key " + ids.get(s) + " does not read back with its"
              + " attached value");
        }
      }
    }
  }

  /** The files' bytes written three times (as the load staged them), each copy forced. */
  private static void plainCopy(List<Built> files, Path dir) throws IOException {
    for (int replica = 0; replica < 3; replica++) {
      Path target = Files.createDirectories(dir.resolve("r" + replica));
      for (Built b : files) {
        Path copy = target.resolve(b.file().getFileName());
        Files.copy(b.file(), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel c = FileChannel.open(copy, StandardOpenOption.WRITE)) {
          c.force(true);
        }
      }
    }
  }
}
