package org.fawnpack.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.input.ClusterVcores;
import org.fawnpack.jobs.tera.TeraGen;
import org.fawnpack.jobs.tera.TeraSort;
import org.fawnpack.jobs.tera.TeraValidate;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * {@code ./fawn bench-tera [rows] [rounds]}: our terasort beside the stock TeraSort example on
 * the same teragen data (laid out as the stock teragen lays it out by default: 2 files), with
 * the same reducer count (the cluster's vcores for tasks, as our terasort picks by default), on
 * one embedded cluster, interleaved. Both outputs of the last round pass our teravalidate with
 * the generated row count and checksum. Writes the "terasort" section of docs/benchmarks.md.
 */
public final class TeraBenchmark {
  static final String BEGIN = "<!-- BEGIN terasort (written by TeraBenchmark) -->";
  static final String END = "<!-- END terasort -->";
  private static final org.apache.hadoop.fs.Path INPUT = new org.apache.hadoop.fs.Path("/bench-tera/in");

  private TeraBenchmark() {
  }

  /** One run's wall time and the counters that say where the time went. */
  private record Run(double seconds, long maps, long spilledRecords, long shuffleBytes,
      long mapMillis, long reduceMillis, long cpuMillis) {
    static Run of(double seconds, Counters c) {
      return new Run(seconds, c.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
          c.findCounter(TaskCounter.SPILLED_RECORDS).getValue(),
          c.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue(),
          c.findCounter(JobCounter.MILLIS_MAPS).getValue(),
          c.findCounter(JobCounter.MILLIS_REDUCES).getValue(),
          c.findCounter(TaskCounter.CPU_MILLISECONDS).getValue());
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 2 || (args.length > 0 && args[0].startsWith("-"))) {
      System.err.println("Usage: ./fawn bench-tera [rows (10000000 = 1 GB)] [rounds (3)]");
      System.exit(2);
    }
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String command = ("./fawn bench-tera " + String.join(" ", args)).trim();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    List<Run> ours = new ArrayList<>();
    List<Run> stock = new ArrayList<>();
    int reduces;
    String checksum;
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().name("bench-tera")
        .baseDir(Path.of("target/bench-tera")).build().start()) {
      Configuration base = cluster.clientConf();
      reduces = ClusterVcores.forJob(base);
      checksum = generate(base, rows);
      for (int round = 0; round < rounds; round++) {
        boolean last = round == rounds - 1;
        // Alternate which goes first, so warm-up and drift do not favour one side.
        for (int side = 0; side < 2; side++) {
          boolean oursNow = (round + side) % 2 == 0;
          String out = "/bench-tera/" + (oursNow ? "ours-" : "stock-") + round;
          Configuration conf = cluster.clientConf();
          conf.setInt("mapreduce.job.reduces", reduces);
          long start = System.nanoTime();
          Run run;
          if (oursNow) {
            TeraSort terasort = new TeraSort();
            check(ToolRunner.run(conf, terasort, new String[] {INPUT.toString(), out}), "terasort");
            run = Run.of((System.nanoTime() - start) / 1e9, terasort.lastJob().getCounters());
            ours.add(run);
          } else {
            check(ToolRunner.run(conf, new org.apache.hadoop.examples.terasort.TeraSort(),
                new String[] {INPUT.toString(), out}), "stock TeraSort");
            run = Run.of((System.nanoTime() - start) / 1e9, latestJobCounters(conf, "TeraSort"));
            stock.add(run);
          }
          System.out.printf(Locale.ROOT, "round %d %s: %.1f s %s%n", round,
              oursNow ? "ours" : "stock", run.seconds(), run);
          if (last) {
            validate(cluster.clientConf(), out, rows, checksum);
          }
          cluster.fileSystem().delete(new org.apache.hadoop.fs.Path(out), true);
        }
      }
    }
    Run ourMedian = medianRun(ours);
    Run stockMedian = medianRun(stock);
    RoundStats ourTimes = seconds(ours);
    RoundStats stockTimes = seconds(stock);
    double ourSeconds = ourTimes.median();
    double stockSeconds = stockTimes.median();
    double ratio = stockSeconds / ourSeconds;
    String table = String.format(Locale.ROOT, """
        ## terasort against the stock TeraSort example

        - measured %s by `%s`; machine: %s; 1-minute load average %.1f at the start, %.1f at the
          end (the machine is shared with other builds: absolute times vary, compare ratios)
        - embedded cluster of 4 NodeManagers x 2 vcores / 1 GB (as `./fawn demo`), %,d rows
          (%,d MB) written by our teragen in 2 files (stock teragen's default layout; the bytes
          equal stock teragen's), %d reducers for both (the vcores our terasort finds for tasks),
          %d rounds interleaved (the order alternating); wall time from submission to completion;
          both outputs of the last round pass teravalidate (rows and checksum %s)
        - counters are those of the median run (the faster of the middle two): maps launched, records spilled to disk (map and reduce),
          bytes shuffled, task wall time summed over all maps / reduces, CPU time of all tasks
          (on 2 shared cores the CPU time, not the parallelism, decides the wall time)

        | job | median s | mean ± sd s | runs (s) | maps | spilled records | shuffled MB | map task s | reduce task s | task CPU s |
        |---|---|---|---|---|---|---|---|---|---|
        | stock TeraSort | %.1f | %s | %s | %d | %,d | %,d | %,d | %,d | %,d |
        | terasort (fawn-jobs.jar) | %.1f | %s | %s | %d | %,d | %,d | %,d | %,d | %,d |

        terasort is %.2fx faster (target 1.2x).
        """, started.truncatedTo(ChronoUnit.SECONDS), command, Machine.describe(), loadBefore,
        Machine.loadAverage(), rows, rows * 100 / 1_000_000, reduces, rounds, checksum,
        stockSeconds, stockTimes.meanSd("%.1f"), format(stock), stockMedian.maps(), stockMedian.spilledRecords(),
        stockMedian.shuffleBytes() / 1_000_000, stockMedian.mapMillis() / 1000,
        stockMedian.reduceMillis() / 1000, stockMedian.cpuMillis() / 1000,
        ourSeconds, ourTimes.meanSd("%.1f"), format(ours), ourMedian.maps(), ourMedian.spilledRecords(),
        ourMedian.shuffleBytes() / 1_000_000, ourMedian.mapMillis() / 1000,
        ourMedian.reduceMillis() / 1000, ourMedian.cpuMillis() / 1000, ratio);
    System.out.println(table);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END, BEGIN + "\n" + table + END + "\n");
  }

  /** Writes the input with our teragen (stock's bytes) and returns its checksum. */
  private static String generate(Configuration conf, long rows) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    TeraGen teragen = new TeraGenQuiet(new PrintStream(printed, true, StandardCharsets.UTF_8));
    conf.setInt("mapreduce.job.maps", 2);
    check(ToolRunner.run(conf, teragen, new String[] {Long.toString(rows), INPUT.toString()}),
        "teragen");
    System.out.print(printed.toString(StandardCharsets.UTF_8));
    return TeraGen.checksum(teragen.lastJob().getCounters()).toString();
  }

  private static void validate(Configuration conf, String dir, long rows, String checksum)
      throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int rc = ToolRunner.run(conf, new TeraValidateQuiet(new PrintStream(printed, true,
        StandardCharsets.UTF_8)), new String[] {"--rows", Long.toString(rows), "--checksum",
        checksum, dir, dir + "-validate"});
    if (rc != 0) {
      throw new IllegalStateException("teravalidate " + dir + " exited " + rc + ":\n" + printed);
    }
  }

  /** The counters of the most recently started job of that name (stock tools hide their Job). */
  private static Counters latestJobCounters(Configuration conf, String jobName)
      throws IOException, InterruptedException {
    Cluster cluster = new Cluster(conf);
    try {
      JobStatus latest = Arrays.stream(cluster.getAllJobStatuses())
          .filter(s -> jobName.equals(s.getJobName()))
          .max(Comparator.comparingLong(JobStatus::getStartTime))
          .orElseThrow(() -> new IllegalStateException("no job named " + jobName));
      return cluster.getJob(latest.getJobID()).getCounters();
    } finally {
      cluster.close();
    }
  }

  private static void check(int rc, String what) {
    if (rc != 0) {
      throw new IllegalStateException(what + " exited " + rc);
    }
  }

  private static RoundStats seconds(List<Run> runs) {
    return RoundStats.of(runs.stream().map(Run::seconds).toList());
  }

  private static Run medianRun(List<Run> runs) {
    List<Run> sorted = runs.stream().sorted(Comparator.comparingDouble(Run::seconds)).toList();
    return sorted.get((sorted.size() - 1) / 2);
  }

  private static String format(List<Run> runs) {
    return String.join(", ", runs.stream()
        .map(r -> String.format(Locale.ROOT, "%.1f", r.seconds())).toList());
  }

  /** teragen printing to a buffer. */
  private static final class TeraGenQuiet extends TeraGen {
    TeraGenQuiet(PrintStream out) {
      super(out);
    }
  }

  /** teravalidate printing to a buffer. */
  private static final class TeraValidateQuiet extends TeraValidate {
    TeraValidateQuiet(PrintStream out) {
      super(out);
    }
  }
}
