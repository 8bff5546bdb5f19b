package org.fawnpack.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.EnergyProtocol;

/** Part 1 of the energy benchmark: what sampling costs the node (host or container utilisation). */
final class SamplerCostPart {

  private final EnergyBenchmarkOptions options;
  private final PrintStream out;
  private final int cores = Runtime.getRuntime().availableProcessors();

  /** Spin iterations of a sampler container's shell loop (some milliseconds of CPU in dash). */
  private static final int SPIN = 10_000;

  SamplerCostPart(EnergyBenchmarkOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }



  EnergyBenchmarkReport.SamplerRun samplerCost(String utilisation) throws Exception {
    int containers = options.containers();
    out.printf("[sampler %s] %d containers, %d s after %d s warm-up ...%n", utilisation,
        containers, options.seconds(), EnergyBenchmark.WARM_UP.toSeconds());
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
          new InProcessCollector(CollectorBench.modelMeter(utilisation), localDir, cores).start()) {
        for (int i = 0; i < containers; i++) {
          collector.announce(i + 1, roots.get(i).pid());
        }
        CollectorClient client = collector.client();
        pollFor(tracker, EnergyBenchmark.WARM_UP.toMillis());
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
        Map<String, Long> byGroup = after.since(before, SamplerCostPart::threadGroup);
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
      FileTrees.delete(localDir);
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


  /** Polls the thread tracker every {@link CollectorBench#POLL_MILLIS} for {@code millis}. */
  private static void pollFor(ThreadCpuTracker tracker, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    while (true) {
      tracker.poll();
      long left = (deadline - System.nanoTime()) / 1_000_000;
      if (left <= 0) {
        return;
      }
      Thread.sleep(Math.min(CollectorBench.POLL_MILLIS, left));
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
}
