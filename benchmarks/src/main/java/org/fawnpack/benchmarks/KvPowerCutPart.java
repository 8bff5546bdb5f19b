package org.fawnpack.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.loopback.LoopbackWorkload;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;

/**
 * A whole-cluster power cut, three times: every back-end SIGKILLed at once, all marked down,
 * then started again in a random order; the seconds from the last start to every arc
 * answering a get (each arc's key read through the front-end), and to every chain whole
 * again (no arc orphaned or copying in the ring), then every loaded key read back with its
 * value. Writes the "fawn-kv-powercut" section of docs/benchmarks.md.
 */
final class KvPowerCutPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-powercut (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-powercut -->";
  private static final int VALUE_BYTES = 16 * 1024;
  private static final int BACKENDS = 4;
  private static final int ROUNDS = 3;
  private static final Duration WAIT = Duration.ofMinutes(5);

  private KvPowerCutPart() {}

  static void run(KvClusterOptions options) throws Exception {
    Path dir = options.dir().resolve("powercut");
    String command = "./fawn bench-kv-cluster --part powercut --move-mb "
        + options.moveMegabytes();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    int keys = (int) ((long) options.moveMegabytes() * 1024 * 1024 / VALUE_BYTES);
    List<String> rows = new ArrayList<>();
    List<Double> readableSeconds = new ArrayList<>();
    List<Double> wholeSeconds = new ArrayList<>();
    Random random = new Random(started.toEpochMilli());
    double loadRate;
    try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("cluster"), BACKENDS, 1,
        Map.of())) {
      LoopbackWorkload workload = new LoopbackWorkload(cluster.frontEndAddresses(),
          cluster.secret());
      loadRate = workload.load(keys, VALUE_BYTES, 4);
      for (int round = 1; round <= ROUNDS; round++) {
        List<String> ids = new ArrayList<>();
        for (int b = 0; b < BACKENDS; b++) {
          ids.add("b" + b);
        }
        for (String id : ids) {
          cluster.killBackend(id);
        }
        cluster.awaitRing("every back-end marked down",
            r -> r.members().stream().allMatch(m -> r.isDown(m.id())));
        Collections.shuffle(ids, random);
        for (String id : ids) {
          cluster.startBackend(id, "127.0.0." + (Integer.parseInt(id.substring(1)) + 1));
        }
        long lastStart = System.nanoTime();
        double readable = awaitEveryArcReadable(cluster, lastStart);
        cluster.awaitRing("every chain whole", r -> r.down().isEmpty()
            && r.orphans().isEmpty() && r.pending().isEmpty());
        double whole = (System.nanoTime() - lastStart) / 1e9;
        readableSeconds.add(readable);
        wholeSeconds.add(whole);
        List<String> missing = workload.missingLoadedKeys(keys);
        rows.add(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %,d of %,d |", round,
            String.join(", ", ids), readable, whole, keys - missing.size(), keys));
        System.out.println(rows.get(rows.size() - 1));
        if (!missing.isEmpty()) {
          throw new IllegalStateException("round " + round + ": " + missing.size()
              + " loaded keys do not read back, e.g. " + missing.get(0));
        }
      }
    }
    double loadAfter = Machine.loadAverage();
    StringBuilder report = new StringBuilder();
    report.append("### FAWN-KV cluster: recovery from a whole-cluster power cut\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. 4 back-ends as child JVMs on 127.0.0.1–.4 (chains of 3, 4 virtual"
        + " nodes each, ZooKeeper session timeout 4 s), %,d keys of %,d bytes loaded (%,.0f"
        + " puts/s). Each round SIGKILLs every back-end, waits until the ring marks all down,"
        + " then starts them again in a random order. Times are from the last start (which"
        + " includes each JVM's own start) to every arc answering a get of one of its keys"
        + " through the front-end (each arc recovered from the longest file of its last"
        + " chain), and to every chain whole (no arc orphaned or copying); then every loaded"
        + " key is read back with its value.%n%n", started.truncatedTo(ChronoUnit.SECONDS),
        Machine.describe(), command, loadBefore, loadAfter, keys, VALUE_BYTES, loadRate));
    report.append("| round | start order | s to every arc readable | s to every chain whole"
        + " | keys read back |\n|---|---|---|---|---|\n");
    rows.forEach(r -> report.append(r).append('\n'));
    report.append(meanRow(readableSeconds, wholeSeconds)).append('\n');
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  /** The rounds' mean ± sample sd of both recovery times, as the table's last row. */
  static String meanRow(List<Double> readableSeconds, List<Double> wholeSeconds) {
    RoundStats readable = RoundStats.of(readableSeconds);
    return String.format(Locale.ROOT, "| mean ± sd of %d | | %s | %s | |", readable.runs(),
        readable.meanSd("%.1f"), RoundStats.of(wholeSeconds).meanSd("%.1f"));
  }

  /** Seconds from {@code since} until a key of every arc reads through the front-end. */
  private static double awaitEveryArcReadable(LoopbackCluster cluster, long since)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(2), cluster.secret())) {
      while (true) {
        Ring ring = cluster.ring();
        Map<Long, byte[]> keyOfArc = new LinkedHashMap<>();
        for (int i = 0; keyOfArc.size() < ring.chains().size() && i < 1_000_000; i++) {
          byte[] key = LoopbackWorkload.key(i);
          Chain chain = ring.chainForKey(key);
          keyOfArc.putIfAbsent(chain.range().endInclusive(), key);
        }
        boolean all = true;
        for (byte[] key : keyOfArc.values()) {
          try {
            if (kv.get(key) == null) {
              all = false;
              break;
            }
          } catch (java.io.IOException e) {
            all = false;
            break;
          }
        }
        if (all) {
          return (System.nanoTime() - since) / 1e9;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("not every arc readable " + WAIT.toMinutes()
              + " min after the last start: " + ring);
        }
        TimeUnit.MILLISECONDS.sleep(100);
      }
    }
  }
}
