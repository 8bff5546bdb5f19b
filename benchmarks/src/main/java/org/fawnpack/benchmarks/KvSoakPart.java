package org.fawnpack.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.loopback.LoopbackWorkload;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.wire.StatsReport;

/**
 * A soak: the same steady stream of overwrites, deletes and gets against two clusters in one
 * run, one that never compacts and one that compacts by the default settings (the cut
 * retention at 0: no point-in-time reader runs); every {@link #SAMPLE_SECONDS} the cluster's
 * log bytes (STATS) against the live bytes a fully compacted cluster would hold, from the
 * workload's own model of which keys hold values; and each phase's get and put latencies.
 * Writes the "fawn-kv-soak" section of docs/benchmarks.md.
 */
final class KvSoakPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-soak (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-soak -->";
  private static final int VALUE_BYTES = 1000;
  private static final int THREADS = 4;
  private static final int SAMPLE_SECONDS = 10;
  private static final int REPLICAS = 3;

  private KvSoakPart() {}

  /** One phase's figures. */
  private record Phase(String name, long ops, long failed, double seconds, long[] gets,
      long[] puts, List<long[]> samples, long compactions, long reclaimed, long liveBytes) {

    /** The highest log bytes ÷ live bytes after the first {@code skip} samples. */
    double worstRatio(int skip) {
      return samples.stream().skip(skip).mapToDouble(s -> (double) s[1] / s[2]).max()
          .orElse(Double.NaN);
    }

    double endRatio() {
      long[] last = samples.get(samples.size() - 1);
      return (double) last[1] / last[2];
    }
  }

  static void run(KvClusterOptions options) throws Exception {
    int keys = options.soakKeys();
    int minutes = options.soakMinutes();
    int rate = options.soakRate();
    String command = "./fawn bench-kv-cluster --part soak --soak-minutes " + minutes
        + " --soak-keys " + keys + " --soak-rate " + rate;
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    Phase off = phase(options, "compaction off", Map.of("fawn.kv.compaction.enabled", "false"));
    Phase on = phase(options, "compaction on", Map.of("fawn.kv.compaction.cut-retention-ms",
        "0"));
    double loadAfter = Machine.loadAverage();
    int skip = Math.max(1, 120 / SAMPLE_SECONDS); // the first two minutes: before any compaction
    StringBuilder report = new StringBuilder();
    report.append("### FAWN-KV cluster: a soak of overwrites and deletes, with and without"
        + " compaction\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. Two clusters one after the other, each 4 back-ends as child JVMs on"
        + " 127.0.0.1–.4 (chains of 3) and 1 front-end: %,d keys of %,d bytes loaded, then %d"
        + " minutes of %,d operations/s from %d client threads (75 %% puts of a new value, 10"
        + " %% deletes, 15 %% gets, keys uniform). Log bytes: the sum of every back-end's arc"
        + " files (STATS), sampled every %d s; live bytes: what the model of the workload says"
        + " a fully compacted cluster holds (%d replicas × every live key's record: 20-byte"
        + " header, 8-byte position, key, value, padded to 8). Compaction on: the defaults"
        + " (garbage ratio 0.5, 8 MiB/s, checks every 10 s) but the cut retention, 0 here.%n%n",
        started.truncatedTo(ChronoUnit.SECONDS), Machine.describe(), command, loadBefore,
        loadAfter, keys, VALUE_BYTES, minutes, rate, THREADS, SAMPLE_SECONDS, REPLICAS));
    report.append("| cluster | ops done | failed | log ÷ live at the end | worst log ÷ live"
        + " after 2 min | compactions | MB given back | get p50 ms | get p99 ms | put p50 ms"
        + " | put p99 ms |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Phase p : List.of(off, on)) {
      report.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %.2f | %.2f | %,d | %,.1f |"
          + " %.2f | %.2f | %.2f | %.2f |%n", p.name(), p.ops(), p.failed(), p.endRatio(),
          p.worstRatio(skip), p.compactions(), p.reclaimed() / 1e6, ms(p.gets(), 0.5),
          ms(p.gets(), 0.99), ms(p.puts(), 0.5), ms(p.puts(), 0.99)));
    }
    report.append("\nLog bytes ÷ live bytes over time (each sample's minute):\n\n| minute |"
        + " compaction off | compaction on |\n|---|---|---|\n");
    for (int i = 0; i < Math.min(off.samples().size(), on.samples().size());
        i += 60 / SAMPLE_SECONDS) {
      report.append(String.format(Locale.ROOT, "| %.1f | %.2f | %.2f |%n",
          off.samples().get(i)[0] / 60.0, ratio(off.samples().get(i)),
          ratio(on.samples().get(i))));
    }
    double worst = on.worstRatio(skip);
    report.append(String.format(Locale.ROOT, "%nTarget (log bytes ≤ 2× live bytes with"
        + " compaction on, after the first two minutes): %s — at most %.2f×. Put p99 with"
        + " compaction on ÷ off: %.2f; get p99: %.2f.%n", worst <= 2 ? "met" : "NOT met",
        worst, ms(on.puts(), 0.99) / ms(off.puts(), 0.99),
        ms(on.gets(), 0.99) / ms(off.gets(), 0.99)));
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  private static double ratio(long[] sample) {
    return (double) sample[1] / sample[2];
  }

  private static Phase phase(KvClusterOptions options, String name,
      Map<String, String> settings) throws Exception {
    int keys = options.soakKeys();
    Path dir = options.dir().resolve("soak-" + name.replace(' ', '-'));
    try (LoopbackCluster cluster = LoopbackCluster.start(dir, 4, 1, settings)) {
      LoopbackWorkload loader = new LoopbackWorkload(cluster.frontEndAddresses(),
          cluster.secret());
      loader.load(keys, VALUE_BYTES, 4);
      // Value bytes each key holds now (0: deleted); each thread writes only its own keys.
      AtomicIntegerArray held = new AtomicIntegerArray(keys);
      for (int i = 0; i < keys; i++) {
        held.set(i, VALUE_BYTES);
      }
      long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(options.soakMinutes());
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<long[][]>> clients = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        clients.add(pool.submit(() -> client(cluster, thread, keys, held,
            options.soakRate() / THREADS, end)));
      }
      List<long[]> samples = new ArrayList<>();
      long start = System.nanoTime();
      while (System.nanoTime() < end) {
        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(SAMPLE_SECONDS));
        long logBytes = logBytes(cluster.backendStats());
        samples.add(new long[] {(System.nanoTime() - start) / 1_000_000_000L, logBytes,
            liveBytes(held)});
        System.out.printf(Locale.ROOT, "%s: %.0f s, log %,d bytes, live %,d bytes (%.2f×)%n",
            name, (System.nanoTime() - start) / 1e9, logBytes, samples.get(samples.size() - 1)[2],
            ratio(samples.get(samples.size() - 1)));
      }
      pool.shutdown();
      List<Long> gets = new ArrayList<>();
      List<Long> puts = new ArrayList<>();
      long ops = 0;
      long failed = 0;
      for (Future<long[][]> client : clients) {
        long[][] r = client.get(2, TimeUnit.MINUTES);
        Arrays.stream(r[0]).forEach(gets::add);
        Arrays.stream(r[1]).forEach(puts::add);
        ops += r[2][0];
        failed += r[2][1];
      }
      Map<String, StatsReport> stats = cluster.backendStats();
      return new Phase(name, ops, failed, (System.nanoTime() - start) / 1e9, sorted(gets),
          sorted(puts), samples,
          stats.values().stream().mapToLong(StatsReport::compactions).sum(),
          stats.values().stream().mapToLong(StatsReport::bytesReclaimed).sum(),
          liveBytes(held));
    }
  }

  /**
   * One client thread: paced to {@code perSecond}, on keys {@code i ≡ thread (mod THREADS)};
   * returns its get latencies, its put latencies (ns) and {ops, failed}.
   */
  private static long[][] client(LoopbackCluster cluster, int thread, int keys,
      AtomicIntegerArray held, int perSecond, long end) throws Exception {
    Random random = new Random(thread * 7919L);
    LongList gets = new LongList();
    LongList puts = new LongList();
    long ops = 0;
    long failed = 0;
    long interval = 1_000_000_000L / Math.max(1, perSecond);
    long next = System.nanoTime();
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
        Duration.ofSeconds(15), cluster.secret())) {
      while (next < end) {
        long wait = next - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        next += interval;
        int k = random.nextInt(keys / THREADS) * THREADS + thread;
        if (k >= keys) {
          continue;
        }
        byte[] key = LoopbackWorkload.key(k);
        int dice = random.nextInt(100);
        long t0 = System.nanoTime();
        try {
          if (dice < 75) {
            byte[] value = new byte[VALUE_BYTES];
            random.nextBytes(value);
            kv.put(key, value);
            puts.add(System.nanoTime() - t0);
            held.set(k, VALUE_BYTES);
          } else if (dice < 85) {
            kv.delete(key);
            held.set(k, 0);
          } else {
            kv.get(key);
            gets.add(System.nanoTime() - t0);
          }
        } catch (java.io.IOException e) {
          failed++;
        }
        ops++;
      }
    }
    return new long[][] {gets.toArray(), puts.toArray(), {ops, failed}};
  }

  private static long logBytes(Map<String, StatsReport> stats) {
    return stats.values().stream().flatMap(r -> r.arcs().stream())
        .mapToLong(StatsReport.Arc::logBytes).sum();
  }

  /** What a fully compacted cluster holds: every live key's record on every replica. */
  private static long liveBytes(AtomicIntegerArray held) {
    long bytes = 0;
    for (int i = 0; i < held.length(); i++) {
      int value = held.get(i);
      if (value > 0) {
        int raw = 20 + 8 + LoopbackWorkload.key(i).length + value;
        bytes += (raw + 7) & -8;
      }
    }
    return REPLICAS * bytes;
  }

  private static long[] sorted(List<Long> values) {
    long[] a = values.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(a);
    return a;
  }

  private static double ms(long[] sortedNanos, double quantile) {
    if (sortedNanos.length == 0) {
      return Double.NaN;
    }
    return sortedNanos[(int) Math.min(sortedNanos.length - 1,
        Math.floor(quantile * sortedNanos.length))] / 1e6;
  }

  /** A growable array of longs (latencies), without boxing while the clients run. */
  private static final class LongList {
    private long[] values = new long[1024];
    private int size;

    void add(long v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    long[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
