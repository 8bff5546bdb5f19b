package org.fawnpack.benchmarks;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.QuasiMonteCarlo;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.pi.Pi;
import org.fawnpack.jobs.pi.PiCounter;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * {@code ./fawn bench-pi [maps] [samples-per-map] [rounds]}: our pi beside the stock
 * QuasiMonteCarlo example at equal maps × samples on one embedded cluster, interleaved, and the
 * same estimate checked. Writes the "pi-benchmark" section of docs/benchmarks.md.
 */
public final class PiBenchmark {
  static final String BEGIN = "<!-- BEGIN pi-benchmark (written by PiBenchmark) -->";
  static final String END = "<!-- END pi-benchmark -->";

  private PiBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 3 || (args.length > 0 && args[0].startsWith("-"))) {
      System.err.println("Usage: ./fawn bench-pi [maps (8)] [samples-per-map (100000000)] [rounds (3)]");
      System.exit(2);
    }
    int maps = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    long samples = args.length > 1 ? Long.parseLong(args[1]) : 100_000_000L;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    String command = ("./fawn bench-pi " + String.join(" ", args)).trim();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    List<Double> ours = new ArrayList<>();
    List<Double> separate = new ArrayList<>();
    List<Double> stock = new ArrayList<>();
    String[] timelines = new String[3];
    BigDecimal ourEstimate = null;
    BigDecimal separateEstimate = null;
    BigDecimal stockEstimate = null;
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().name("bench-pi")
        .baseDir(Path.of("target/bench-pi")).build().start()) {
      for (int round = 0; round < rounds; round++) {
        // Rotate which goes first, so warm-up and drift do not favour one side.
        for (int step = 0; step < 3; step++) {
          int side = (round + step) % 3;
          Configuration conf = cluster.clientConf();
          long submitted = System.currentTimeMillis();
          long start = System.nanoTime();
          if (side == 2) {
            stockEstimate = QuasiMonteCarlo.estimatePi(maps, samples,
                new org.apache.hadoop.fs.Path("/bench-pi/stock-" + round), conf);
            stock.add((System.nanoTime() - start) / 1e9);
            timelines[2] = JobTimeline.latest(conf, "QuasiMonteCarlo", submitted,
                System.currentTimeMillis());
            continue;
          }
          // side 1: one container per map, one thread each (pi before uber mode and threads)
          String[] piArgs = side == 0 ? new String[] {Integer.toString(maps), Long.toString(samples)}
              : new String[] {"-Dmapreduce.job.ubertask.enable=false", Integer.toString(maps),
                  Long.toString(samples)};
          Pi pi = new Pi();
          if (ToolRunner.run(conf, pi, piArgs) != 0) {
            throw new IllegalStateException("pi failed");
          }
          var counters = pi.lastJob().getCounters();
          BigDecimal estimate = Pi.estimate(counters.findCounter(PiCounter.INSIDE).getValue(),
              counters.findCounter(PiCounter.SAMPLES).getValue());
          (side == 0 ? ours : separate).add((System.nanoTime() - start) / 1e9);
          timelines[side] = JobTimeline.describe(pi.lastJob(), submitted,
              System.currentTimeMillis());
          if (side == 0) {
            ourEstimate = estimate;
          } else {
            separateEstimate = estimate;
          }
        }
      }
    }
    if (ourEstimate.compareTo(separateEstimate) != 0) {
      throw new IllegalStateException("uber and separate-container pi differ: " + ourEstimate
          + " vs " + separateEstimate);
    }
    // The stock example sums each coordinate as a running double over all its points, ours
    // recomputes it exactly each step: far into the sequence a point on the circle's edge can
    // fall either way. More than that would be a bug.
    double points = (double) maps * samples;
    double pointsApart = Math.abs(ourEstimate.subtract(stockEstimate).doubleValue()) / 4 * points;
    if (pointsApart > 10) {
      throw new IllegalStateException("estimates differ by " + pointsApart + " points: ours "
          + ourEstimate + ", stock " + stockEstimate);
    }
    double ourMedian = median(ours);
    double stockMedian = median(stock);
    double separateMedian = median(separate);
    String table = String.format(Locale.ROOT, """
        ## pi against the stock QuasiMonteCarlo example

        - measured %s by `%s`; machine: %s; 1-minute load average %.1f at the start
        - embedded cluster of 4 NodeManagers x 2 vcores / 1 GB (as `./fawn demo`), %d maps x %,d
          samples, %d rounds interleaved (the order rotating), wall time from submission to the
          estimate; pi printed %s (error %+.2e), the stock example %s: %.0f point(s) apart (it
          sums each coordinate as a running double; pi computes each point exactly)

        | job | median s | runs (s) |
        |---|---|---|
        | stock QuasiMonteCarlo | %.1f | %s |
        | pi, one container per map, one thread each (`-Dmapreduce.job.ubertask.enable=false`: pi before uber mode) | %.1f | %s |
        | pi (fawn-jobs.jar, defaults: uber job, maps on the AM container's vcores) | %.1f | %s |

        pi is %.2fx faster than the stock example (target 2x); with one container per map it
        is %.2fx.

        Where the time went (last round of each; seconds from submission; launch times are the
        AM's, so a task's "launch to end" includes its JVM start):
        - stock: %s
        - pi, one container per map: %s
        - pi, uber: %s
        """, started.truncatedTo(ChronoUnit.SECONDS), command, Machine.describe(), loadBefore,
        maps, samples, rounds, ourEstimate.toPlainString(),
        ourEstimate.doubleValue() - Math.PI, stockEstimate.stripTrailingZeros().toPlainString(),
        pointsApart, stockMedian, format(stock), separateMedian, format(separate), ourMedian,
        format(ours), stockMedian / ourMedian, stockMedian / separateMedian, timelines[2],
        timelines[1], timelines[0]);
    System.out.println(table);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END, BEGIN + "\n" + table + END + "\n");
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static String format(List<Double> values) {
    return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList());
  }
}
