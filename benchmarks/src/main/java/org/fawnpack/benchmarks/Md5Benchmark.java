package org.fawnpack.benchmarks;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.jobs.md5.Md5Counter;
import org.fawnpack.jobs.md5.Md5Gen;
import org.fawnpack.jobs.md5.Md5Search;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * {@code ./fawn bench-md5 [bits] [rounds]}: md5search on the embedded cluster beside a plain
 * single-threaded loop in this JVM over the same values, in MD5s per second per core, and the
 * job's transformations per joule (the thesis's figure of merit). Writes the "md5search" section
 * of docs/benchmarks.md.
 */
public final class Md5Benchmark {
  static final String BEGIN = "<!-- BEGIN md5search (written by Md5Benchmark) -->";
  static final String END = "<!-- END md5search -->";

  /** The loop's own CPU time: on a loaded machine its wall time also counts waiting. */
  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  private Md5Benchmark() {
  }

  /** One md5search run's figures. */
  record JobRun(double seconds, long hashes, long maps, double taskCpuSeconds,
      double joules, boolean metered, String timeline) {
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 2 || (args.length > 0 && args[0].startsWith("-"))) {
      System.err.println("Usage: ./fawn bench-md5 [bits (24)] [rounds (3)]");
      System.exit(2);
    }
    int bits = args.length > 0 ? Integer.parseInt(args[0]) : 24;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String command = ("./fawn bench-md5 " + String.join(" ", args)).trim();
    int machineCores = Runtime.getRuntime().availableProcessors();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    long seed = System.nanoTime();
    long secret = new Random(seed).nextLong() & ((1L << bits) - 1);
    byte[] target = MessageDigest.getInstance("MD5")
        .digest(ByteBuffer.allocate(4).putInt((int) secret).array());
    String targetHex = HexFormat.of().formatHex(target);

    List<JobRun> jobs = new ArrayList<>();
    List<Double> loops = new ArrayList<>();
    List<Double> loopCpu = new ArrayList<>();
    int clusterVcores;
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().name("bench-md5")
        .baseDir(Path.of("target/bench-md5")).build().start()) {
      clusterVcores = cluster.totalVcores();
      Configuration conf = cluster.clientConf();
      if (ToolRunner.run(conf, new Md5Gen(), new String[] {"--bits", Integer.toString(bits),
          "/bench-md5/values"}) != 0) {
        throw new IllegalStateException("md5gen failed");
      }
      for (int round = 0; round < rounds; round++) {
        // Alternate which goes first, so warm-up and drift do not favour one side.
        for (int side = 0; side < 2; side++) {
          if ((round + side) % 2 == 0) {
            jobs.add(runJob(cluster.clientConf(), bits, targetHex, secret, round));
          } else {
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            loops.add(runLoop(bits, target, secret));
            loopCpu.add((THREADS.getCurrentThreadCpuTime() - cpuStart) / 1e9);
          }
        }
      }
    }
    String table = report(bits, rounds, command, started, loadBefore, Machine.loadAverage(),
        machineCores, clusterVcores, targetHex, jobs, loops, loopCpu);
    System.out.println(table);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END, BEGIN + "\n" + table + END
        + "\n");
  }

  private static JobRun runJob(Configuration conf, int bits, String targetHex, long secret,
      int round) throws Exception {
    Md5Search search = new Md5Search();
    long submitted = System.currentTimeMillis();
    long start = System.nanoTime();
    int exit = ToolRunner.run(conf, search, new String[] {"--target", targetHex, "--bits",
        Integer.toString(bits), "/bench-md5/values", "/bench-md5/out-" + round});
    double seconds = (System.nanoTime() - start) / 1e9;
    if (exit != 0) {
      throw new IllegalStateException("md5search failed with exit code " + exit);
    }
    List<String> found = Md5Search.preimages(search.lastJob());
    if (found.size() != 1 || !found.get(0).startsWith(secret + "\t")) {
      throw new IllegalStateException("md5search found " + found + ", expected " + secret);
    }
    Counters counters = search.lastJob().getCounters();
    JobEnergySummary energy = JobEnergySummary.of(counters, search.lastWallMillis());
    return new JobRun(seconds, counters.findCounter(Md5Counter.TRANSFORMATIONS).getValue(),
        counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        counters.findCounter(TaskCounter.CPU_MILLISECONDS).getValue() / 1000.0, energy.joules(),
        energy.metered(), JobTimeline.describe(search.lastJob(), submitted,
            System.currentTimeMillis()));
  }

  private static double runLoop(int bits, byte[] target, long secret) throws Exception {
    long start = System.nanoTime();
    List<Long> found = SingleJvmMd5Search.search(bits, target);
    double seconds = (System.nanoTime() - start) / 1e9;
    if (!found.equals(List.of(secret))) {
      throw new IllegalStateException("the loop found " + found + ", expected " + secret);
    }
    return seconds;
  }

  static String report(int bits, int rounds, String command, Instant started,
      double loadBefore, double loadAfter, int machineCores, int clusterVcores, String targetHex, List<JobRun> jobs,
      List<Double> loops, List<Double> loopCpu) {
    long values = 1L << bits;
    JobRun median = jobs.stream().sorted((a, b) -> Double.compare(a.seconds(), b.seconds()))
        .toList().get(jobs.size() / 2);
    RoundStats jobSeconds = RoundStats.of(jobs.stream().map(JobRun::seconds).toList());
    RoundStats jobCpu = RoundStats.of(jobs.stream().map(JobRun::taskCpuSeconds).toList());
    RoundStats loopSeconds = RoundStats.of(loops);
    RoundStats loopCpuSeconds = RoundStats.of(loopCpu);
    double jobRate = values / median.seconds();
    double loopRate = values / loopSeconds.median();
    double loopCpuRate = values / loopCpuSeconds.median();
    boolean metered = median.metered();
    return String.format(Locale.ROOT, """
        ## md5search against a plain single-JVM loop

        - measured %s by `%s`; machine: %s; 1-minute load average %.1f at the start, %.1f at
          the end (the machine is shared with other builders: the figures move with their load)
        - embedded cluster of 4 NodeManagers x 2 vcores / 1 GB (as `./fawn demo`): %d vcores in
          all on %d real cores; %d bits = %,d values (%,d MiB of 4-byte records written by
          md5gen), target = MD5 of a random value (%s, found every round); %d rounds
          interleaved; the median job round is shown, the mean ± sample standard deviation
          over the rounds beside it
        - the loop: one thread in the benchmark JVM, one MessageDigest, the same values hashed
          the same way (hash written behind the value in a reused array) and compared with the
          target

        | | wall s (runs) | mean ± sd | MD5s/s | per core | cores counted |
        |---|---|---|---|---|---|
        | md5search job (%d maps) | %.1f (%s) | %s s | %,.0f | %,.0f | %d = the machine's cores, all available to the job's %d vcores (%,.0f per vcore) |
        | md5search job, task CPU time | %.1f CPU s | %s CPU s | | %,.0f | per CPU-second of the job's tasks (maps and the reduce, JVM starts included) |
        | single-JVM loop | %.2f (%s) | %s s | %,.0f | %,.0f | 1 = one thread |
        | single-JVM loop, thread CPU time | %.2f CPU s | %s CPU s | | %,.0f | per CPU-second of the loop's thread |

        The job reaches %.0f %% of the loop's per-core rate counted on wall time (its fixed cost:
        ApplicationMaster and task JVM starts, the sort of %,d map outputs, the commit), %.0f %%
        counted on CPU time (its tasks' against the loop thread's; CPU time does not move with
        the other builders' load the way wall time does). TRANSFORMATIONS = %,d (= 2^%d, one MD5 per value).
        %s

        Where the median job's time went (seconds from submission): %s
        """, started.truncatedTo(ChronoUnit.SECONDS), command, Machine.describe(), loadBefore,
        loadAfter,
        clusterVcores, machineCores, bits, values, values * 4 / (1024 * 1024), targetHex, rounds,
        median.maps(), median.seconds(), format(jobs.stream().map(JobRun::seconds).toList(), "%.1f"),
        jobSeconds.meanSd("%.1f"), jobRate, jobRate / machineCores, machineCores, clusterVcores,
        jobRate / median.maps(),
        median.taskCpuSeconds(), jobCpu.meanSd("%.1f"), values / median.taskCpuSeconds(),
        loopSeconds.median(), format(loops, "%.2f"), loopSeconds.meanSd("%.2f"), loopRate,
        loopRate, loopCpuSeconds.median(), loopCpuSeconds.meanSd("%.2f"), loopCpuRate,
        100 * jobRate / machineCores / loopRate, values,
        100 * values / median.taskCpuSeconds() / loopCpuRate,
        median.hashes(), bits,
        metered ? energy(median, jobs) : "Energy: not metered (no fawn_energy collector answered).",
        median.timeline());
  }

  /** The median round's joules and work per joule, and their mean ± sd over metered rounds. */
  private static String energy(JobRun median, List<JobRun> jobs) {
    List<JobRun> metered = jobs.stream().filter(JobRun::metered).toList();
    RoundStats joules = RoundStats.of(metered.stream().map(JobRun::joules).toList());
    RoundStats perJoule = RoundStats.of(metered.stream().map(j -> j.hashes() / j.joules())
        .toList());
    return String.format(Locale.ROOT, "Energy (the embedded cluster's Edison power model, an"
        + " estimate): %.1f J in the tasks, %,.0f transformations per joule (the median job"
        + " round); mean ± sd over the %d metered %s: %s J, %s transformations per joule.",
        median.joules(), median.hashes() / median.joules(), joules.runs(),
        joules.runs() == 1 ? "round" : "rounds", joules.meanSd("%.1f"), perJoule.meanSd("%,.0f"));
  }

  private static String format(List<Double> values, String pattern) {
    return String.join(", ", values.stream().map(v -> String.format(Locale.ROOT, pattern, v))
        .toList());
  }
}
