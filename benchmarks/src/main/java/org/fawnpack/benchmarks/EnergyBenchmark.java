package org.fawnpack.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.util.ToolRunner;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.ContainerEnergy;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.energy.EnergyKeys;
import org.fawnpack.energy.EnergyMetering;
import org.fawnpack.energy.EnergyProtocol;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.SampleInputs;

/**
 * Measures three targets of the energy collector (docs/energy.md) and writes them to the
 * {@code energy-benchmark} section of docs/benchmarks.md:
 *
 * <ol>
 *   <li><b>sampler</b>: CPU the real {@code EnergyCollectorService} spends, in this JVM, on a
 *       node with 8 containers (real process trees) sampled at 1 Hz, once with the model meter on
 *       host utilisation and once on the containers' CPU time. Target: at most 0.5 % of one
 *       core.</li>
 *   <li><b>attribution</b>: two real containers whose CPU use is 3:1 (3 CPU-bound processes in
 *       one tree, 1 in the other, on this machine's cores); their dynamic energy as the service
 *       answers it through {@link CollectorClient}, against their CPU time as the kernel reports
 *       it to {@link ProcessHandle}. Target: 3:1 within 5 %.</li>
 *   <li><b>overhead</b>: wordcount2 on the embedded cluster (collector in every NodeManager),
 *       metered and unmetered, interleaved. Target: metering costs at most 1 % of runtime.</li>
 * </ol>
 */
public final class EnergyBenchmark {

  /** Not measured: the first seconds (JIT, class loading, first scans, first samples). */
  static final Duration WARM_UP = Duration.ofSeconds(5);
  private static final long POLL_MILLIS = 250;
  /** Spin iterations of a sampler container's shell loop (some milliseconds of CPU in dash). */
  private static final int SPIN = 10_000;

  private final EnergyBenchmarkOptions options;
  private final PrintStream out;
  private final int cores = Runtime.getRuntime().availableProcessors();

  EnergyBenchmark(EnergyBenchmarkOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      System.out.println(EnergyBenchmarkOptions.USAGE);
      return;
    }
    EnergyBenchmarkOptions options;
    try {
      options = EnergyBenchmarkOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("bench-energy: " + e.getMessage());
      System.err.println(EnergyBenchmarkOptions.USAGE);
      System.exit(JobTool.EXIT_USAGE);
      return;
    }
    int rc = 0;
    try {
      new EnergyBenchmark(options, System.out).run();
    } catch (Exception | AssertionError e) {
      System.err.println("bench-energy failed: " + e);
      e.printStackTrace();
      rc = 1;
    }
    System.exit(rc);
  }

  void run() throws Exception {
    EnergyBenchmarkReport report = new EnergyBenchmarkReport(options.report());
    if (options.runs(EnergyBenchmarkOptions.SAMPLER)) {
      Start start = new Start();
      List<EnergyBenchmarkReport.SamplerRun> runs = new ArrayList<>();
      runs.add(samplerCost("host"));
      runs.add(samplerCost("containers"));
      publish(report, EnergyBenchmarkOptions.SAMPLER, report.sampler(runs, start.context()));
    }
    if (options.runs(EnergyBenchmarkOptions.ATTRIBUTION)) {
      Start start = new Start();
      EnergyBenchmarkReport.Attribution result = attribution();
      publish(report, EnergyBenchmarkOptions.ATTRIBUTION,
          report.attribution(result, start.context()));
    }
    if (options.runs(EnergyBenchmarkOptions.OVERHEAD)) {
      Start start = new Start();
      EnergyBenchmarkReport.Overhead result = overhead();
      publish(report, EnergyBenchmarkOptions.OVERHEAD, report.overhead(result, start.context()));
    }
    out.println("Report written to " + options.report().toAbsolutePath());
  }

  /** Prints one part and rewrites the report at once, so a later failure cannot lose it. */
  private void publish(EnergyBenchmarkReport report, String part, String markdown) throws IOException {
    out.println();
    out.println(markdown);
    report.put(part, markdown);
    report.write();
  }

  /** When a part started and the load then; {@link #context} adds the rest at its end. */
  private final class Start {
    private final ZonedDateTime date = ZonedDateTime.now();
    private final long nanos = System.nanoTime();
    private final double load = Machine.loadAverage();

    EnergyBenchmarkReport.Context context() {
      return new EnergyBenchmarkReport.Context(date, options.command(),
          Machine.describe(), load, Machine.loadAverage(), (System.nanoTime() - nanos) / 1e9);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 1. Sampler cost

  /**
   * The Edison power model (1.40 W idle, 1.68 W busy) sampled at 1 Hz, no history files;
   * {@code utilisation} host or containers.
   */
  private static Map<String, String> modelMeter(String utilisation) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(EnergyKeys.METERS.name(), "model");
    settings.put(EnergyKeys.meterKey("model", "idle-watts"), "1.40");
    settings.put(EnergyKeys.meterKey("model", "busy-watts"), "1.68");
    settings.put(EnergyKeys.meterKey("model", "utilisation"), utilisation);
    settings.put(EnergyKeys.SAMPLE_INTERVAL_MS.name(), "1000");
    settings.put(EnergyKeys.HISTORY_ENABLED.name(), "false");
    return settings;
  }

  EnergyBenchmarkReport.SamplerRun samplerCost(String utilisation) throws Exception {
    int containers = options.containers();
    out.printf("[sampler %s] %d containers, %d s after %d s warm-up ...%n", utilisation,
        containers, options.seconds(), WARM_UP.toSeconds());
    Path localDir = Files.createTempDirectory("fawn-energy-bench-");
    try (ChildProcesses children = new ChildProcesses()) {
      // Each container: a shell that spins a few milliseconds, then waits on `sleep 0.5`, for
      // ever; a tree of 2 processes most of the time, as a container's launch script + JVM.
      List<Process> roots = new ArrayList<>();
      for (int i = 0; i < containers; i++) {
        roots.add(children.shell("while :; do i=0; while [ $i -lt " + SPIN
            + " ]; do i=$((i+1)); done; sleep 0.5; done"));
      }
      ThreadCpuTracker tracker = new ThreadCpuTracker("fawn-energy");
      try (InProcessCollector collector =
          new InProcessCollector(modelMeter(utilisation), localDir, cores).start()) {
        for (int i = 0; i < containers; i++) {
          collector.announce(i + 1, roots.get(i).pid());
        }
        CollectorClient client = collector.client();
        pollFor(tracker, WARM_UP.toMillis());
        collector.requireCpuReadable();
        Map<String, String> nodeBefore = node(client);
        long childCpuBefore = totalCpu(roots);
        ThreadCpuTracker.Snapshot before = tracker.snapshot();
        // What the collector's threads used before the window (start, warm-up).
        long warmUpNanos = before.totalSince(ThreadCpuTracker.Snapshot.EMPTY);
        long t0 = System.nanoTime();
        pollFor(tracker, options.seconds() * 500L);
        int processes = processesInProc();
        pollFor(tracker, options.seconds() * 500L);
        ThreadCpuTracker.Snapshot after = tracker.snapshot();
        long t1 = System.nanoTime();
        long childCpu = totalCpu(roots) - childCpuBefore;
        Map<String, String> nodeAfter = node(client);
        double wallSeconds = (t1 - t0) / 1e9;
        Map<String, Long> byGroup = after.since(before, EnergyBenchmark::threadGroup);
        long samples = Long.parseLong(nodeAfter.get("samples"))
            - Long.parseLong(nodeBefore.get("samples"));
        double joules = (Long.parseLong(nodeAfter.get("metered_uj"))
            - Long.parseLong(nodeBefore.get("metered_uj"))) / 1e6;
        long gaps = Long.parseLong(nodeAfter.get("gaps")) - Long.parseLong(nodeBefore.get("gaps"));
        EnergyBenchmarkReport.SamplerRun run = new EnergyBenchmarkReport.SamplerRun(utilisation, containers,
            processes, wallSeconds, samples, gaps, byGroup, warmUpNanos,
            joules / wallSeconds, childCpu / 1e9 / wallSeconds / containers);
        out.printf("[sampler %s] %.2f CPU ms per s = %.3f %% of one core (%s), %d samples, "
            + "%d processes in /proc%n", utilisation, run.cpuMillisPerSecond(),
            run.percentOfCore(), byGroup, samples, processes);
        return run;
      }
    } finally {
      deleteTree(localDir);
    }
  }

  private static String threadGroup(String name) {
    if (name.equals("fawn-energy-sampler")) {
      return "sampler";
    }
    if (name.startsWith("fawn-energy-meter-")) {
      return "meter";
    }
    return "query";
  }

  /** Waits until the collector has booked {@code samples} intervals for the container. */
  private static void awaitBooked(CollectorClient client, String containerId, long samples,
      Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (client.containerEnergy(containerId).samples() < samples) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("collector booked fewer than " + samples
            + " samples for " + containerId + " in " + timeout);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }

  /** Polls the thread tracker every {@link #POLL_MILLIS} for {@code millis}. */
  private static void pollFor(ThreadCpuTracker tracker, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (true) {
      tracker.poll();
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return;
      }
      Thread.sleep(Math.min(POLL_MILLIS, left));
    }
  }

  /** The {@code NODE} answer's fields, through the real query port. */
  private static Map<String, String> node(CollectorClient client) throws IOException {
    Map<String, String> fields = new HashMap<>();
    for (String token : client.ask(EnergyProtocol.NODE).split("\\s+")) {
      int eq = token.indexOf('=');
      if (eq > 0) {
        fields.put(token.substring(0, eq), token.substring(eq + 1));
      }
    }
    return fields;
  }

  static int processesInProc() throws IOException {
    try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
      return (int) entries.filter(p -> p.getFileName().toString().chars()
          .allMatch(Character::isDigit)).count();
    }
  }

  private static long totalCpu(List<Process> roots) {
    long nanos = 0;
    for (Process root : roots) {
      nanos += ChildProcesses.treeCpu(root).toNanos();
    }
    return nanos;
  }

  // ---------------------------------------------------------------------------------------------
  // 2. Attribution

  EnergyBenchmarkReport.Attribution attribution() throws Exception {
    out.printf("[attribution] containers of 3 and 1 busy processes, %d s after %d s warm-up ...%n",
        options.seconds(), WARM_UP.toSeconds());
    Map<String, String> settings = modelMeter("containers");
    // Idle power as the embedded cluster configures it: the dynamic part is then exactly the
    // model's (busy - idle) x utilisation, split by the containers' CPU time.
    settings.put(EnergyKeys.NODE_IDLE_WATTS.name(), "1.40");
    Path localDir = Files.createTempDirectory("fawn-energy-bench-");
    try (ChildProcesses children = new ChildProcesses()) {
      // All four busy processes on one CPU: one run queue, whose fair scheduler gives equal
      // shares to equal tasks, so the trees get 3:1 whatever else runs on the machine. Spread
      // over two cores they would not: each core's share depends on what else runs there.
      String spin = "while :; do :; done & ";
      boolean pinned = ChildProcesses.canPin();
      int cpu = cores - 1;
      Process three = pinned ? children.pinnedShell(cpu, spin.repeat(3) + "wait")
          : children.shell(spin.repeat(3) + "wait");
      Process one = pinned ? children.pinnedShell(cpu, spin + "wait")
          : children.shell(spin + "wait");
      ChildProcesses.awaitDescendants(three, 3, Duration.ofSeconds(10));
      ChildProcesses.awaitDescendants(one, 1, Duration.ofSeconds(10));
      try (InProcessCollector collector =
          new InProcessCollector(settings, localDir, cores).start()) {
        ContainerId a = collector.announce(1, three.pid());
        ContainerId b = collector.announce(2, one.pid());
        CollectorClient client = collector.client();
        Thread.sleep(WARM_UP.toMillis());
        collector.requireCpuReadable();
        long t0 = System.nanoTime();
        ContainerEnergy a0 = client.containerEnergy(a.toString());
        ContainerEnergy b0 = client.containerEnergy(b.toString());
        Duration cpuA0 = ChildProcesses.treeCpu(three);
        Duration cpuB0 = ChildProcesses.treeCpu(one);
        Thread.sleep(options.seconds() * 1000L);
        ContainerEnergy a1 = client.containerEnergy(a.toString());
        ContainerEnergy b1 = client.containerEnergy(b.toString());
        Duration cpuA1 = ChildProcesses.treeCpu(three);
        Duration cpuB1 = ChildProcesses.treeCpu(one);
        double wallSeconds = (System.nanoTime() - t0) / 1e9;
        EnergyBenchmarkReport.Attribution result = new EnergyBenchmarkReport.Attribution(wallSeconds, cores,
            pinned ? cpu : -1,
            new EnergyBenchmarkReport.Share(3, cpuA1.minus(cpuA0), a1.minus(a0)),
            new EnergyBenchmarkReport.Share(1, cpuB1.minus(cpuB0), b1.minus(b0)));
        out.printf("[attribution] CPU ratio %.4f, attributed dynamic-energy ratio %.4f "
            + "(%+.2f %% against the CPU ratio, %+.2f %% against 3:1)%n", result.cpuRatio(),
            result.dynamicRatio(), result.errorVsCpuPercent(), result.errorVsTargetPercent());
        return result;
      }
    } finally {
      deleteTree(localDir);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // 3. Metering overhead on a job

  /** Queries timed by {@link #queryLatency}, after {@link #QUERY_WARM_UP_COUNT} not timed. */
  static final int QUERIES = 200;
  static final int QUERY_WARM_UP_COUNT = 20;

  /**
   * What a metered task adds at its end: one {@code ENERGY} query through
   * {@link CollectorClient}, which makes the collector take a fresh sample (queries are spaced
   * further apart than the 50 ms within which it would reuse the last one). Sorted milliseconds.
   */
  List<Double> queryLatency() throws Exception {
    out.printf("[overhead] timing %d ENERGY queries ...%n", QUERIES);
    Map<String, String> settings = modelMeter("containers");
    settings.put(EnergyKeys.NODE_IDLE_WATTS.name(), "1.40");
    Path localDir = Files.createTempDirectory("fawn-energy-bench-");
    try (ChildProcesses children = new ChildProcesses()) {
      Process sleeper = children.shell("sleep 3600 & wait");
      ChildProcesses.awaitDescendants(sleeper, 1, Duration.ofSeconds(10));
      try (InProcessCollector collector =
          new InProcessCollector(settings, localDir, cores).start()) {
        String id = collector.announce(1, sleeper.pid()).toString();
        CollectorClient client = collector.client();
        awaitBooked(client, id, 2, Duration.ofSeconds(30));
        collector.requireCpuReadable();
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < QUERY_WARM_UP_COUNT + QUERIES; i++) {
          // Paced beyond the collector's 50 ms reuse window, so each query takes a fresh
          // sample, as a task's does: that is the cost being measured.
          Thread.sleep(60);
          long start = System.nanoTime();
          client.containerEnergy(id);
          if (i >= QUERY_WARM_UP_COUNT) {
            millis.add((System.nanoTime() - start) / 1e6);
          }
        }
        millis.sort(null);
        out.printf("[overhead] ENERGY query: median %.2f ms, max %.2f ms%n",
            millis.get(millis.size() / 2), millis.get(millis.size() - 1));
        return millis;
      }
    } finally {
      deleteTree(localDir);
    }
  }

  EnergyBenchmarkReport.Overhead overhead() throws Exception {
    List<Double> queryMillis = queryLatency();
    out.printf("[overhead] wordcount2 metered and unmetered, %d rounds ...%n", options.rounds());
    try (EmbeddedCluster cluster = EmbeddedCluster.builder().name("bench-energy")
        .baseDir(Path.of("target", "bench-energy", "cluster")).build().start()) {
      if (!cluster.spec().energyCollector()) {
        throw new IllegalStateException("the embedded cluster runs without the collector");
      }
      FileSystem fs = cluster.fileSystem();
      org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/bench-energy/in");
      new SampleInputs(2016, 20_000).writeTextFiles(fs, in, options.files(),
          options.fileKb() * 1024, i -> { });
      long bytes = 0;
      for (FileStatus status : fs.listStatus(in)) {
        bytes += status.getLen();
      }
      // One unmeasured run: the cluster's first job pays for JIT and cold caches.
      JobRun warmUp = runWordCount2(cluster, in, "warm-up", true);
      out.printf("[overhead] warm-up run: %.1f s%n", warmUp.seconds);
      fs.delete(warmUp.output, true);

      Measurements measurements = new Measurements();
      List<String> order = new ArrayList<>();
      List<Double> pairedPercent = new ArrayList<>();
      double joules = 0;
      long tasksMetered = 0;
      long tasks = 0;
      Map<Boolean, Map<String, Long>> firstOutputs = new HashMap<>();
      for (int round = 1; round <= options.rounds(); round++) {
        // Alternate which goes first, so drift within a round hits both alike.
        boolean[] sequence = round % 2 == 1 ? new boolean[] {true, false}
            : new boolean[] {false, true};
        Map<Boolean, Double> times = new HashMap<>();
        for (boolean metered : sequence) {
          String name = EnergyBenchmarkReport.variant(metered);
          out.printf("[overhead round %d] %s ...%n", round, name);
          JobRun run = runWordCount2(cluster, in, (metered ? "on-" : "off-") + round, metered);
          measurements.add(name, run.seconds, run.maps);
          times.put(metered, run.seconds);
          order.add(String.format(java.util.Locale.ROOT, "%s %.1f", metered ? "on" : "off",
              run.seconds));
          out.printf("[overhead round %d] %s: %.1f s%n", round, name, run.seconds);
          checkMetering(run.counters, metered);
          if (metered) {
            joules = run.counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES).getValue() / 1e3;
            tasksMetered = run.counters.findCounter(EnergyCounter.TASKS_METERED).getValue();
            tasks = run.counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue()
                + run.counters.findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue();
          }
          if (round == 1) {
            firstOutputs.put(metered, JobOutputs.read(fs, run.output));
          }
          fs.delete(run.output, true);
        }
        pairedPercent.add(100 * (times.get(true) / times.get(false) - 1));
      }
      if (!firstOutputs.get(true).equals(firstOutputs.get(false))) {
        throw new IllegalStateException("metered and unmetered wordcount2 wrote different output");
      }
      return new EnergyBenchmarkReport.Overhead(cluster.spec().nodeManagers(), cluster.spec().nodeVcores(),
          cluster.spec().nodeMemoryMb(), options.files(), bytes, measurements, order,
          pairedPercent, joules, tasksMetered, tasks, warmUp.seconds, queryMillis);
    }
  }

  private record JobRun(double seconds, long maps, Counters counters,
      org.apache.hadoop.fs.Path output) {
  }

  private JobRun runWordCount2(EmbeddedCluster cluster, org.apache.hadoop.fs.Path in, String tag,
      boolean metered) throws Exception {
    Configuration conf = cluster.clientConf();
    conf.setBoolean(EnergyMetering.ENABLED_KEY, metered);
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path("/bench-energy/out/" + tag);
    WordCount2 tool = new WordCount2();
    long start = System.nanoTime();
    int rc = ToolRunner.run(conf, tool, new String[] {in.toString(), output.toString()});
    double seconds = (System.nanoTime() - start) / 1e9;
    if (rc != 0) {
      throw new IllegalStateException("wordcount2 exited with " + rc);
    }
    Counters counters = tool.lastJob().getCounters();
    return new JobRun(seconds, counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        counters, output);
  }

  /** A metered run must have been metered by every task, an unmetered one by none. */
  private static void checkMetering(Counters counters, boolean metered) {
    long tasksMetered = counters.findCounter(EnergyCounter.TASKS_METERED).getValue();
    long unmetered = counters.findCounter(EnergyCounter.TASKS_UNMETERED).getValue();
    if (metered && (tasksMetered == 0 || unmetered != 0)) {
      throw new IllegalStateException("metered run: " + tasksMetered + " tasks metered, "
          + unmetered + " unmetered");
    }
    if (!metered && (tasksMetered != 0 || unmetered != 0)) {
      throw new IllegalStateException("unmetered run reported energy counters");
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
