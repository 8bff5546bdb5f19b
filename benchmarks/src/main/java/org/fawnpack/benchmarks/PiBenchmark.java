package org.fawnpack.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.QuasiMonteCarlo;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.configs.Profile;
import org.fawnpack.configs.ProfileReader;
import org.fawnpack.configs.Setting;
import org.fawnpack.jobs.pi.Pi;
import org.fawnpack.jobs.pi.PiCounter;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * {@code ./fawn bench-pi [maps] [samples-per-map] [rounds]}: our pi beside the stock
 * QuasiMonteCarlo example at equal maps × samples on one embedded cluster laid out as the
 * product's clusters are (a master NodeManager labelled {@code master} runs every
 * ApplicationMaster, the slaves the tasks), interleaved, and the same estimate checked. Two pi
 * rows: its default, whose maps run in containers on the slaves (the headline), and a forced
 * uber job, whose maps run inside the ApplicationMaster on the master. Writes the
 * "pi-benchmark" section of docs/benchmarks.md.
 */
public final class PiBenchmark {
  static final String BEGIN = "<!-- BEGIN pi-benchmark (written by PiBenchmark) -->";
  static final String END = "<!-- END pi-benchmark -->";

  private enum Side { STOCK, CONTAINERS, UBER }

  /** One pi run: its time, estimate, and what the job itself said and counted. */
  private record PiRun(double seconds, BigDecimal estimate, String timeline, String whereRan,
      String startUp, long taskJvms, double startSecondsPerJvm, double startCpuPerJvm) {}

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
    Profile master = ProfileReader.builtIn("brawny-master");
    int masterMb = master.get(Setting.NODE_MEMORY_MB);
    int masterVcores = master.get(Setting.VCORES);
    Map<Side, List<Double>> times = new EnumMap<>(Side.class);
    Map<Side, List<PiRun>> piRuns = new EnumMap<>(Side.class);
    for (Side side : Side.values()) {
      times.put(side, new ArrayList<>());
      piRuns.put(side, new ArrayList<>());
    }
    String stockTimeline = null;
    BigDecimal stockEstimate = null;
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().name("bench-pi")
        .baseDir(Path.of("target/bench-pi")).masterNodeManager(masterMb, masterVcores).build()
        .start()) {
      for (int round = 0; round < rounds; round++) {
        // Rotate which goes first, so warm-up and drift do not favour one side.
        for (int step = 0; step < 3; step++) {
          Side side = Side.values()[(round + step) % 3];
          Configuration conf = cluster.clientConf();
          long submitted = System.currentTimeMillis();
          long start = System.nanoTime();
          if (side == Side.STOCK) {
            stockEstimate = QuasiMonteCarlo.estimatePi(maps, samples,
                new org.apache.hadoop.fs.Path("/bench-pi/stock-" + round), conf);
            times.get(side).add((System.nanoTime() - start) / 1e9);
            stockTimeline = JobTimeline.latest(conf, "QuasiMonteCarlo", submitted,
                System.currentTimeMillis());
            continue;
          }
          PiRun run = runPi(conf, side, maps, samples, submitted, start);
          times.get(side).add(run.seconds());
          piRuns.get(side).add(run);
        }
      }
    }
    PiRun containers = last(piRuns.get(Side.CONTAINERS));
    PiRun uber = last(piRuns.get(Side.UBER));
    if (containers.estimate().compareTo(uber.estimate()) != 0) {
      throw new IllegalStateException("uber and per-container pi differ: " + uber.estimate()
          + " vs " + containers.estimate());
    }
    // The stock example sums each coordinate as a running double over all its points, ours
    // recomputes it exactly each step: far into the sequence a point on the circle's edge can
    // fall either way. More than that would be a bug.
    double points = (double) maps * samples;
    double pointsApart = Math.abs(containers.estimate().subtract(stockEstimate).doubleValue())
        / 4 * points;
    if (pointsApart > 10) {
      throw new IllegalStateException("estimates differ by " + pointsApart + " points: ours "
          + containers.estimate() + ", stock " + stockEstimate);
    }
    RoundStats stockTimes = RoundStats.of(times.get(Side.STOCK));
    RoundStats containersTimes = RoundStats.of(times.get(Side.CONTAINERS));
    RoundStats uberTimes = RoundStats.of(times.get(Side.UBER));
    double stockMedian = stockTimes.median();
    double containersMedian = containersTimes.median();
    double uberMedian = uberTimes.median();
    List<PiRun> perContainer = piRuns.get(Side.CONTAINERS);
    RoundStats startSeconds = RoundStats.of(perContainer.stream()
        .map(PiRun::startSecondsPerJvm).toList());
    RoundStats startCpu = RoundStats.of(perContainer.stream().map(PiRun::startCpuPerJvm).toList());
    String table = String.format(Locale.ROOT, """
        ## pi against the stock QuasiMonteCarlo example

        - measured %s by `%s`; machine: %s; 1-minute load average %.1f at the start, %.1f at
          the end (the machine's 2 cores are shared with other builds: compare the ratios, which
          come from one run, side by side)
        - embedded cluster as `./fawn demo` lays it out: 4 slave NodeManagers x 2 vcores / 1 GB
          and a master NodeManager of %d vcores / %d MB (the brawny-master profile's) labelled
          `master`, on which every ApplicationMaster runs; %d maps x %,d samples, %d rounds
          interleaved (the order rotating), wall time from submission to the estimate; pi
          printed %s (error %+.2e), the stock example %s: %.0f point(s) apart (it sums each
          coordinate as a running double; pi computes each point exactly)

        | job | where the maps ran | median s | mean ± sd s | runs (s) | vs stock |
        |---|---|---|---|---|---|
        | stock QuasiMonteCarlo | one container per map on the slaves | %.1f | %s | %s | 1.00x |
        | **pi (default)** | %s | **%.1f** | %s | %s | **%.2fx** |
        | pi, uber job forced (`-Dmapreduce.job.ubertask.enable=true`) | %s | %.1f | %s | %s | %.2fx |

        **Headline: pi on the slaves is %.2fx faster than the stock example** (per-container
        path, pi's default on this cluster). The forced uber job, %.2fx, measures the master,
        not the wimpy slaves.

        Task JVM start-up of pi's default (pi's counters: wall time from a task JVM's start to
        its map's setup, and the CPU that JVM had used by then, per task JVM; median of the
        rounds): %.1f s and %.1f s of CPU per JVM (mean ± sd %s s and %s s), %d JVMs a run;
        counting itself: %s.

        What each pi job printed (last round):
        - default: %s; %s
        - uber forced: %s; %s

        Where the time went (last round of each; seconds from submission; launch times are the
        AM's, so a task's "launch to end" includes its JVM start):
        - stock: %s
        - pi (default): %s
        - pi, uber forced: %s
        """, started.truncatedTo(ChronoUnit.SECONDS), command, Machine.describe(), loadBefore,
        Machine.loadAverage(), masterVcores, masterMb, maps, samples, rounds,
        containers.estimate().toPlainString(), containers.estimate().doubleValue() - Math.PI,
        stockEstimate.stripTrailingZeros().toPlainString(), pointsApart,
        stockMedian, stockTimes.meanSd("%.1f"), format(times.get(Side.STOCK)),
        where(containers), containersMedian, containersTimes.meanSd("%.1f"),
        format(times.get(Side.CONTAINERS)), stockMedian / containersMedian,
        where(uber), uberMedian, uberTimes.meanSd("%.1f"), format(times.get(Side.UBER)),
        stockMedian / uberMedian,
        stockMedian / containersMedian, stockMedian / uberMedian,
        startSeconds.median(), startCpu.median(), startSeconds.meanSd("%.1f"),
        startCpu.meanSd("%.1f"), containers.taskJvms(), countingPart(containers.startUp()),
        containers.whereRan(), containers.startUp(), uber.whereRan(), uber.startUp(),
        stockTimeline, containers.timeline(), uber.timeline());
    System.out.println(table);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END, BEGIN + "\n" + table + END + "\n");
  }

  private static PiRun runPi(Configuration conf, Side side, int maps, long samples,
      long submitted, long start) throws Exception {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    Pi pi = new CapturedPi(new PrintStream(printed, true, StandardCharsets.UTF_8));
    List<String> args = new ArrayList<>();
    if (side == Side.UBER) {
      args.add("-Dmapreduce.job.ubertask.enable=true");
    }
    args.add(Integer.toString(maps));
    args.add(Long.toString(samples));
    if (ToolRunner.run(conf, pi, args.toArray(String[]::new)) != 0) {
      throw new IllegalStateException("pi failed:\n" + printed.toString(StandardCharsets.UTF_8));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String out = printed.toString(StandardCharsets.UTF_8);
    System.out.print(out);
    Counters counters = pi.lastJob().getCounters();
    BigDecimal estimate = Pi.estimate(counters.findCounter(PiCounter.INSIDE).getValue(),
        counters.findCounter(PiCounter.SAMPLES).getValue());
    long jvms = counters.findCounter(PiCounter.TASK_JVMS).getValue();
    double startWall = jvms == 0 ? 0
        : counters.findCounter(PiCounter.TASK_START_MILLIS).getValue() / 1000.0 / jvms;
    double startCpu = jvms == 0 ? 0
        : counters.findCounter(PiCounter.TASK_START_CPU_MILLIS).getValue() / 1000.0 / jvms;
    return new PiRun(seconds, estimate, JobTimeline.describe(pi.lastJob(), submitted,
        System.currentTimeMillis()), line(out, "pi ran "), line(out, "pi start-up: "), jvms,
        startWall, startCpu);
  }

  /** The line of pi's output that starts with {@code prefix}, without it. */
  private static String line(String out, String prefix) {
    return out.lines().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> l.substring(prefix.length()))
        .orElseThrow(() -> new IllegalStateException("pi printed no '" + prefix + "' line:\n"
            + out));
  }

  /** "uber job on ..." / "8 containers on ..." for the table, from pi's own line. */
  private static String where(PiRun run) {
    return run.whereRan().replace(", each in a container of its own,", " in containers");
  }

  /** "4.40 s per map" from pi's start-up line. */
  private static String countingPart(String startUp) {
    String marker = "counting took ";
    int at = startUp.indexOf(marker);
    return at < 0 ? startUp : startUp.substring(at + marker.length());
  }

  private static PiRun last(List<PiRun> runs) {
    return runs.get(runs.size() - 1);
  }

  private static String format(List<Double> values) {
    return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList());
  }

  /** pi printing into the benchmark's buffer. */
  private static final class CapturedPi extends Pi {
    CapturedPi(PrintStream out) {
      super(out);
    }
  }
}
