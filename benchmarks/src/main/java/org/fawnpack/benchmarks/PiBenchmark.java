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
    List<Double> stock = new ArrayList<>();
    BigDecimal ourEstimate = null;
    BigDecimal stockEstimate = null;
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().name("bench-pi")
        .baseDir(Path.of("target/bench-pi")).build().start()) {
      for (int round = 0; round < rounds; round++) {
        // Alternate which goes first, so warm-up and drift do not favour one side.
        for (int side = 0; side < 2; side++) {
          boolean oursNow = (round + side) % 2 == 0;
          Configuration conf = cluster.clientConf();
          long start = System.nanoTime();
          if (oursNow) {
            Pi pi = new Pi();
            if (ToolRunner.run(conf, pi, new String[] {Integer.toString(maps),
                Long.toString(samples)}) != 0) {
              throw new IllegalStateException("pi failed");
            }
            var counters = pi.lastJob().getCounters();
            ourEstimate = Pi.estimate(counters.findCounter(PiCounter.INSIDE).getValue(),
                counters.findCounter(PiCounter.SAMPLES).getValue());
            ours.add((System.nanoTime() - start) / 1e9);
          } else {
            stockEstimate = QuasiMonteCarlo.estimatePi(maps, samples,
                new org.apache.hadoop.fs.Path("/bench-pi/stock-" + round), conf);
            stock.add((System.nanoTime() - start) / 1e9);
          }
        }
      }
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
    String table = String.format(Locale.ROOT, """
        ## pi against the stock QuasiMonteCarlo example

        - measured %s by `%s`; machine: %s; 1-minute load average %.1f at the start
        - embedded cluster of 4 NodeManagers x 2 vcores / 1 GB (as `./fawn demo`), %d maps x %,d
          samples, %d rounds interleaved (the order alternating), wall time from submission to the
          estimate; pi printed %s (error %+.2e), the stock example %s: %.0f point(s) apart (it
          sums each coordinate as a running double; pi computes each point exactly)

        | job | median s | runs (s) |
        |---|---|---|
        | stock QuasiMonteCarlo | %.1f | %s |
        | pi (fawn-jobs.jar) | %.1f | %s |

        pi is %.2fx faster (target 2x).
        """, started.truncatedTo(ChronoUnit.SECONDS), command, Machine.describe(), loadBefore,
        maps, samples, rounds, ourEstimate.toPlainString(),
        ourEstimate.doubleValue() - Math.PI, stockEstimate.stripTrailingZeros().toPlainString(),
        pointsApart, stockMedian, format(stock), ourMedian, format(ours),
        stockMedian / ourMedian);
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
