package org.fawnpack.benchmarks;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.EnergyCounter;
import org.fawnpack.energy.EnergyKeys;
import org.fawnpack.energy.EnergyMetering;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.SampleInputs;

/** Part 3 of the energy benchmark: what metering costs a job (metered beside unmetered runs). */
final class MeteringOverheadPart {

  private final EnergyBenchmarkOptions options;
  private final PrintStream out;
  private final int cores = Runtime.getRuntime().availableProcessors();

  MeteringOverheadPart(EnergyBenchmarkOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }


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
    Map<String, String> settings = CollectorBench.modelMeter("containers");
    settings.put(EnergyKeys.NODE_IDLE_WATTS.name(), "1.40");
    Path localDir = Files.createTempDirectory("fawn-energy-bench-");
    try (ChildProcesses children = new ChildProcesses()) {
      Process sleeper = children.shell("sleep 3600 & wait");
      ChildProcesses.awaitDescendants(sleeper, 1, Duration.ofSeconds(10));
      try (InProcessCollector collector =
          new InProcessCollector(settings, localDir, cores).start()) {
        String id = collector.announce(1, sleeper.pid()).toString();
        CollectorClient client = collector.client();
        CollectorBench.awaitBooked(client, id, 2, Duration.ofSeconds(30));
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
      FileTrees.delete(localDir);
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
      List<Double> joules = new ArrayList<>();
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
            joules.add(
                run.counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES).getValue() / 1e3);
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
}
