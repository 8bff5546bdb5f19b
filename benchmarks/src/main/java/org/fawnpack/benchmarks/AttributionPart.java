package org.fawnpack.benchmarks;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.ContainerEnergy;
import org.fawnpack.energy.EnergyKeys;

/** Part 2 of the energy benchmark: how joules are attributed to containers; query latency. */
final class AttributionPart {

  private final EnergyBenchmarkOptions options;
  private final PrintStream out;
  private final int cores = Runtime.getRuntime().availableProcessors();

  AttributionPart(EnergyBenchmarkOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }


  EnergyBenchmarkReport.Attribution attribution() throws Exception {
    out.printf("[attribution] containers of 3 and 1 busy processes, %d s after %d s warm-up ...%n",
        options.seconds(), EnergyBenchmark.WARM_UP.toSeconds());
    Map<String, String> settings = CollectorBench.modelMeter("containers");
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
        Thread.sleep(EnergyBenchmark.WARM_UP.toMillis());
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
      FileTrees.delete(localDir);
    }
  }
}
