package org.fawnpack.benchmarks;

import java.nio.file.Path;
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
import java.util.concurrent.atomic.AtomicBoolean;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.loopback.LoopbackWorkload;

/**
 * One journal per back-end against a force per arc file ({@code fawn.kv.sync.journal} true and
 * false), in alternating rounds on fresh clusters: a pipelined load (batches of 500 from one
 * client, as the demo loads) and single puts from {@code --clients} threads, each with the
 * back-ends' CPU per put. Writes the "fawn-kv-journal" section of docs/benchmarks.md.
 */
final class KvJournalPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-journal (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-journal -->";
  private static final int VALUE_BYTES = 100;
  private static final int ROUNDS = 2;

  private KvJournalPart() {}

  /** What one round measured with one setting. */
  record Round(boolean journal, double loadRate, double loadCpuMicros, double putRate,
      double putP50Millis, double putP99Millis, double putCpuMicros) {}

  static void run(KvClusterOptions options) throws Exception {
    String command = "./fawn bench-kv-cluster --part journal --keys " + options.keys()
        + " --seconds " + options.seconds() + " --clients " + options.clients();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    List<Round> rounds = new ArrayList<>();
    for (int r = 0; r < ROUNDS; r++) {
      for (boolean journal : r % 2 == 0 ? new boolean[] {false, true}
          : new boolean[] {true, false}) {
        Round round = round(options, journal, options.dir().resolve("journal-" + r + "-"
            + journal));
        System.out.println(row(round));
        rounds.add(round);
      }
    }
    double loadAfter = Machine.loadAverage();
    StringBuilder report = new StringBuilder();
    report.append("### FAWN-KV cluster: one journal per back-end\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. Each row a fresh cluster of 4 back-ends as child JVMs on 127.0.0.1–.4"
        + " (chains of 3, every member forcing each write before it answers: `every-member`),"
        + " one front-end, with `fawn.kv.sync.journal` as shown (true: one journal per"
        + " back-end, one force for every arc's writes; false: each arc file forced for its"
        + " own), settings alternating. Unrecorded first: %,d puts to warm the JVMs. Load:"
        + " %,d keys of %d bytes from one client in batches of 500 (as `./fawn kv demo`)."
        + " Single puts: %d client threads, each one put at a time of a %d-byte value to"
        + " random keys among those, for %d s. Back-ends' CPU: user and system of their"
        + " processes over each phase, per put.%n%n", started.truncatedTo(ChronoUnit.SECONDS),
        Machine.describe(), command, loadBefore, loadAfter, warmKeys(options), options.keys(),
        VALUE_BYTES, options.clients(), VALUE_BYTES, options.seconds()));
    report.append("| journal | load puts/s | load: back-ends' CPU µs per put | single puts/s |"
        + " p50 ms | p99 ms | single: back-ends' CPU µs per put |\n"
        + "|---|---|---|---|---|---|---|\n");
    rounds.forEach(r -> report.append(row(r)).append('\n'));
    report.append(meanRow(rounds, false)).append('\n');
    report.append(meanRow(rounds, true)).append('\n');
    report.append(String.format(Locale.ROOT, "%nMeans, journal ÷ none: load %.2f×, back-ends'"
        + " CPU per loaded put %.2f×; single puts %.2f×, back-ends' CPU per single put %.2f×."
        + " The mean rows leave the latency percentiles out: each is one round's.%n",
        mean(rounds, true, Round::loadRate) / mean(rounds, false, Round::loadRate),
        mean(rounds, true, Round::loadCpuMicros) / mean(rounds, false, Round::loadCpuMicros),
        mean(rounds, true, Round::putRate) / mean(rounds, false, Round::putRate),
        mean(rounds, true, Round::putCpuMicros) / mean(rounds, false, Round::putCpuMicros)));
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  private static int warmKeys(KvClusterOptions options) {
    return Math.max(10_000, options.keys() / 5);
  }

  private static Round round(KvClusterOptions options, boolean journal, Path dir)
      throws Exception {
    try (LoopbackCluster cluster = LoopbackCluster.start(dir, 4, 1,
        Map.of("fawn.kv.sync.journal", Boolean.toString(journal)))) {
      LoopbackWorkload workload = new LoopbackWorkload(cluster.frontEndAddresses(),
          cluster.secret());
      workload.load(warmKeys(options), VALUE_BYTES, 1);
      double cpu = CpuTime.seconds(cluster.backendProcesses().values());
      double loadRate = workload.load(options.keys(), VALUE_BYTES, 1);
      double loadCpu = CpuTime.seconds(cluster.backendProcesses().values()) - cpu;
      cpu = CpuTime.seconds(cluster.backendProcesses().values());
      SinglePuts puts = SinglePuts.run(cluster, options.keys(), options.clients(),
          options.seconds());
      double putCpu = CpuTime.seconds(cluster.backendProcesses().values()) - cpu;
      return new Round(journal, loadRate, loadCpu * 1e6 / options.keys(), puts.perSecond(),
          puts.percentileMillis(0.5), puts.percentileMillis(0.99), putCpu * 1e6 / puts.count());
    }
  }

  /** Closed-loop puts, one at a time per thread, with every latency kept. */
  private record SinglePuts(long[] nanos, double seconds) {
    static SinglePuts run(LoopbackCluster cluster, int keys, int threads, int seconds)
        throws Exception {
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<long[]>> done = new ArrayList<>();
      byte[] value = new byte[VALUE_BYTES];
      long start = System.nanoTime();
      try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
          java.time.Duration.ofSeconds(15), cluster.secret())) {
        for (int t = 0; t < threads; t++) {
          long seed = t;
          done.add(pool.submit(() -> {
            Random random = new Random(seed);
            long[] taken = new long[1 << 16];
            int n = 0;
            while (!stop.get()) {
              long began = System.nanoTime();
              kv.put(LoopbackWorkload.key(random.nextInt(keys)), value);
              if (n == taken.length) {
                taken = Arrays.copyOf(taken, n * 2);
              }
              taken[n++] = System.nanoTime() - began;
            }
            return Arrays.copyOf(taken, n);
          }));
        }
        TimeUnit.SECONDS.sleep(seconds); // the measured window, not a wait for an outcome
        stop.set(true);
        pool.shutdown();
        long[] all = new long[0];
        for (Future<long[]> f : done) {
          long[] some = f.get();
          int at = all.length;
          all = Arrays.copyOf(all, at + some.length);
          System.arraycopy(some, 0, all, at, some.length);
        }
        Arrays.sort(all);
        return new SinglePuts(all, (System.nanoTime() - start) / 1e9);
      }
    }

    long count() {
      return nanos.length;
    }

    double perSecond() {
      return nanos.length / seconds;
    }

    double percentileMillis(double p) {
      return nanos[Math.min(nanos.length - 1, (int) (p * nanos.length))] / 1e6;
    }
  }

  private static String row(Round r) {
    return String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %,.0f | %.2f | %.2f | %,.0f |",
        setting(r.journal()), r.loadRate(), r.loadCpuMicros(), r.putRate(), r.putP50Millis(),
        r.putP99Millis(), r.putCpuMicros());
  }

  private static String setting(boolean journal) {
    return journal ? "one per back-end" : "none (a force per arc file)";
  }

  /** One setting's mean ± sample sd over its rounds; its percentile cells left empty. */
  static String meanRow(List<Round> rounds, boolean journal) {
    RoundStats load = stats(rounds, journal, Round::loadRate);
    return String.format(Locale.ROOT, "| mean ± sd of %d: %s | %s | %s | %s | | | %s |",
        load.runs(), setting(journal), load.meanSd("%,.0f"),
        stats(rounds, journal, Round::loadCpuMicros).meanSd("%,.0f"),
        stats(rounds, journal, Round::putRate).meanSd("%,.0f"),
        stats(rounds, journal, Round::putCpuMicros).meanSd("%,.0f"));
  }

  private static double mean(List<Round> rounds, boolean journal,
      java.util.function.ToDoubleFunction<Round> of) {
    return stats(rounds, journal, of).mean();
  }

  private static RoundStats stats(List<Round> rounds, boolean journal,
      java.util.function.ToDoubleFunction<Round> of) {
    return RoundStats.of(rounds.stream().filter(r -> r.journal() == journal).mapToDouble(of)
        .toArray());
  }
}
