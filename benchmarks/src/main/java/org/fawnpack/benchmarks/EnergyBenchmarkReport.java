package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.fawnpack.energy.ContainerEnergy;

/**
 * The energy benchmark's section of the report. Each of its three parts sits between markers of
 * its own inside the section, with its own date, machine and command; a run that measures only
 * some parts ({@code --only}) rewrites those and carries the others over from the file as they
 * were. Nothing outside the section is touched.
 */
final class EnergyBenchmarkReport {

  static final String BEGIN = "<!-- BEGIN energy-benchmark (written by EnergyBenchmark) -->";
  static final String END = "<!-- END energy-benchmark -->";
  static final double SAMPLER_TARGET_PERCENT = 0.5;
  static final double ATTRIBUTION_TARGET_PERCENT = 5;
  static final double OVERHEAD_TARGET_PERCENT = 1;
  static final String METERED = "metered";
  static final String UNMETERED = "unmetered";

  private final Path file;
  private final Map<String, String> parts = new LinkedHashMap<>();

  /** Where a part ran: filled in when the part ends. */
  record Context(ZonedDateTime date, String command, String machine, double loadBefore,
      double loadAfter, double seconds) {

    String describe() {
      return String.format(Locale.ROOT,
          "- measured %s (%.1f min) by `%s`%n- machine: %s; 1-minute load average %.1f at the "
              + "start, %.1f at the end (all runnable work on the machine, this benchmark's "
              + "included)%n",
          date.truncatedTo(ChronoUnit.SECONDS).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
          seconds / 60, command, machine, loadBefore, loadAfter);
    }
  }

  /** One sampler configuration. {@code cpuNanos} by thread kind: sampler, meter, query. */
  record SamplerRun(String utilisation, int containers, int processesInProc, double wallSeconds,
      long samples, long gaps, Map<String, Long> cpuNanos, long warmUpCpuNanos,
      double nodeWatts, double childCoreFraction) {

    double cpuMillis() {
      return cpuNanos.values().stream().mapToLong(Long::longValue).sum() / 1e6;
    }

    double cpuMillisPerSecond() {
      return cpuMillis() / wallSeconds;
    }

    /** Of one core: 1000 CPU ms per wall second is 100 %. */
    double percentOfCore() {
      return cpuMillisPerSecond() / 10;
    }

    double millisPerSample() {
      return samples == 0 ? Double.NaN : cpuMillis() / samples;
    }

    double groupMillis(String group) {
      return cpuNanos.getOrDefault(group, 0L) / 1e6;
    }
  }

  /** One container of the attribution run: what it used and what it was given, in the window. */
  record Share(int busyProcesses, Duration cpu, ContainerEnergy energy) {
    long dynamicMicrojoules() {
      return energy.energyMicrojoules() - energy.idleMicrojoules();
    }
  }

  /** {@code pinnedCpu}: the CPU all busy processes were bound to, -1 if they were not. */
  record Attribution(double wallSeconds, int vcores, int pinnedCpu, Share heavy, Share light) {
    double cpuRatio() {
      return (double) heavy.cpu.toNanos() / light.cpu.toNanos();
    }

    double dynamicRatio() {
      return (double) heavy.dynamicMicrojoules() / light.dynamicMicrojoules();
    }

    double errorVsCpuPercent() {
      return 100 * (dynamicRatio() / cpuRatio() - 1);
    }

    double errorVsTargetPercent() {
      return 100 * (dynamicRatio() / 3 - 1);
    }

    double cpuVsTargetPercent() {
      return 100 * (cpuRatio() / 3 - 1);
    }
  }

  /** {@code joules}: the tasks' energy of each metered run, in run order. */
  record Overhead(int nodeManagers, int vcores, int memoryMb, int files, long bytes,
      Measurements times, List<String> order, List<Double> pairedPercent, List<Double> joules,
      long tasksMetered, long tasksLaunched, double warmUpSeconds, List<Double> queryMillis) {

    /** Percentile of the sorted query latencies. */
    double queryPercentile(double p) {
      int index = (int) Math.ceil(p / 100 * queryMillis.size()) - 1;
      return queryMillis.get(Math.max(0, Math.min(queryMillis.size() - 1, index)));
    }

    /** Every launched task's query one after the other, over the unmetered median runtime. */
    double serialQueryBoundPercent() {
      return 100 * tasksLaunched * queryPercentile(50) / 1000 / times.median(UNMETERED);
    }

    double ratio() {
      return times.median(METERED) / times.median(UNMETERED);
    }

    double overheadPercent() {
      return 100 * (ratio() - 1);
    }

    double spreadPercent(String variant) {
      return 100 * (times.max(variant) - times.min(variant)) / times.median(variant);
    }

    /** The largest of the two variants' spreads and the range of the paired differences. */
    double noisePercent() {
      double pairedRange = pairedPercent.isEmpty() ? 0
          : pairedPercent.stream().mapToDouble(Double::doubleValue).max().orElse(0)
              - pairedPercent.stream().mapToDouble(Double::doubleValue).min().orElse(0);
      return Math.max(pairedRange, Math.max(spreadPercent(METERED), spreadPercent(UNMETERED)));
    }

    /** Metered against unmetered within each round, in per cent. */
    RoundStats paired() {
      return RoundStats.of(pairedPercent);
    }
  }

  EnergyBenchmarkReport(Path file) throws IOException {
    this.file = file;
    String section = ReportSections.between(ReportSections.read(file), BEGIN, END).orElse("");
    for (String part : EnergyBenchmarkOptions.PARTS) {
      ReportSections.between(section, partBegin(part), partEnd(part))
          .ifPresent(inner -> parts.put(part, partBegin(part) + inner + partEnd(part) + "\n"));
    }
  }

  static String partBegin(String part) {
    return "<!-- BEGIN energy-benchmark/" + part + " -->";
  }

  static String partEnd(String part) {
    return "<!-- END energy-benchmark/" + part + " -->";
  }

  static String variant(boolean metered) {
    return metered ? METERED : UNMETERED;
  }

  /** Sets one part's markdown (with its markers), replacing what the file had. */
  void put(String part, String markdown) {
    parts.put(part, markdown);
  }

  /** The previous or new markdown of one part, if any. */
  String part(String part) {
    return parts.get(part);
  }

  String markdown() {
    StringBuilder md = new StringBuilder(BEGIN).append('\n');
    md.append("## Energy collector: sampler cost, attribution, metering overhead\n\n");
    md.append("Three targets of the energy collector ([energy.md](energy.md)), measured with the "
        + "real `EnergyCollectorService`, real child processes and the real query port. Each part "
        + "says when, where and by which command it was measured; `./fawn bench-energy --only "
        + "PART` rewrites that part and keeps the others as they were.\n\n");
    for (String part : EnergyBenchmarkOptions.PARTS) {
      String text = parts.get(part);
      if (text != null) {
        md.append(text).append('\n');
      }
    }
    md.append(END).append('\n');
    return md.toString();
  }

  void write() throws IOException {
    ReportSections.write(file, BEGIN, END, markdown());
  }

  // ---------------------------------------------------------------------------------------------

  String sampler(List<SamplerRun> runs, Context context) {
    SamplerRun first = runs.get(0);
    StringBuilder md = new StringBuilder(partBegin(EnergyBenchmarkOptions.SAMPLER)).append('\n');
    md.append(String.format(Locale.ROOT, "### 1. Sampler cost: %d containers at 1 Hz "
        + "(target: at most %.1f %% of one core)%n%n", first.containers(),
        SAMPLER_TARGET_PERCENT));
    md.append(context.describe());
    md.append(String.format(Locale.ROOT,
        "- setup: the service in the benchmark's JVM (`init`, `start`, `initializeContainer`), "
            + "`fawn.energy.meters=model` (idle 1.40 W, busy 1.68 W), sample interval 1000 ms, "
            + "history off, node of %d vcores. %d containers of 1 vcore, each a real process "
            + "tree: a `sh` loop that spins %,d iterations and then waits on `sleep 0.5` (2 "
            + "processes most of the time; %.1f %% of a core each, measured), its pid in "
            + "`nmPrivate/<app>/<container>/<container>.pid`, CPU read from `/proc`%n"
            + "- measured: CPU time (`ThreadMXBean.getThreadCpuTime`) of every thread named "
            + "`fawn-energy*` over %.0f s of wall time, after %d s not counted (start, JIT, first "
            + "samples)%n%n",
        Runtime.getRuntime().availableProcessors(), first.containers(), 10_000,
        100 * first.childCoreFraction(), first.wallSeconds(), EnergyBenchmark.WARM_UP.toSeconds()));
    md.append("| model utilisation | processes in /proc | wall s | samples (gaps) "
        + "| CPU ms: sampler + meter + query | CPU ms per s | % of one core | CPU ms per sample "
        + "| before the window, CPU ms | mean node power W | target |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (SamplerRun run : runs) {
      md.append(String.format(Locale.ROOT,
          "| %s | %d | %.1f | %d (%d) | %.0f + %.0f + %.0f | %.2f | %.3f %% | %.2f | %.0f | %.3f "
              + "| %s |%n",
          run.utilisation(), run.processesInProc(), run.wallSeconds(), run.samples(), run.gaps(),
          run.groupMillis("sampler"), run.groupMillis("meter"), run.groupMillis("query"),
          run.cpuMillisPerSecond(), run.percentOfCore(), run.millisPerSample(),
          run.warmUpCpuNanos() / 1e6, run.nodeWatts(),
          run.percentOfCore() <= SAMPLER_TARGET_PERCENT ? "met" : "**missed**"));
    }
    md.append("\n");
    md.append("What the columns mean: *sampler* is the timer thread (reads every container's "
        + "CPU time: one scan of `/proc` for all process trees, then books the interval in the "
        + "ledger), *meter* the model meter's reader thread (host utilisation from SIGAR or "
        + "`/proc/stat`, or the containers' utilisation the sampler just computed), *query* the "
        + "query port's threads (here only the two `NODE` questions that frame the window). "
        + "*% of one core* is CPU ms per wall second / 10. *Processes in /proc* is what the "
        + "scan walks each second (all processes of the host or PID namespace, not only the "
        + "containers'), the main driver of the sampler's cost. *Mean node power* is the "
        + "metered energy over the window divided by its length, through the `NODE` answer: "
        + "1.40 W + 0.28 W x utilisation.\n");
    md.append(partEnd(EnergyBenchmarkOptions.SAMPLER)).append('\n');
    return md.toString();
  }

  String attribution(Attribution a, Context context) {
    StringBuilder md = new StringBuilder(partBegin(EnergyBenchmarkOptions.ATTRIBUTION))
        .append('\n');
    md.append(String.format(Locale.ROOT, "### 2. Attribution: two containers at 3:1 CPU "
        + "(target: attributed 3:1 within %.0f %%)%n%n", ATTRIBUTION_TARGET_PERCENT));
    md.append(context.describe());
    md.append(String.format(Locale.ROOT,
        "- setup: the service in the benchmark's JVM with the model meter on the containers' "
            + "utilisation (idle 1.40 W, busy 1.68 W, `fawn.energy.node.idle-watts=1.40`), node "
            + "of %d vcores, two containers of 1 vcore. Container A is a `sh` with %d busy-loop "
            + "children (`while :; do :; done &`), B one with %d. %s%n"
            + "- measured over %.1f s after %d s of warm-up: each container's energy through "
            + "`CollectorClient.containerEnergy` on the service's port (from its metadata), at "
            + "the start and end of the window; its CPU time from the kernel through "
            + "`ProcessHandle.info().totalCpuDuration()` of every process in its tree, read "
            + "right after each query: the independent check%n%n",
        a.vcores(), a.heavy().busyProcesses(), a.light().busyProcesses(), a.pinnedCpu() >= 0
            ? String.format(Locale.ROOT, "All %d busy processes are bound to CPU %d (`taskset`): "
                + "on one run queue the kernel's fair scheduler gives equal tasks equal shares, "
                + "so A gets 3 times B's CPU however loaded the machine is. Duty-cycled loops, or "
                + "the same processes spread over both cores, lose the ratio as soon as other "
                + "work contends for a core", a.heavy().busyProcesses()
                + a.light().busyProcesses(), a.pinnedCpu())
            : "The busy processes are not bound to one CPU (no `taskset`), so other work on "
                + "the cores can move their ratio off 3:1; the CPU row shows by how much",
        a.wallSeconds(),
        EnergyBenchmark.WARM_UP.toSeconds()));
    md.append("| container | busy processes | CPU s (kernel) | energy J | idle share J "
        + "| dynamic J (energy - idle share) | samples |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    appendShare(md, "A", a.heavy());
    appendShare(md, "B", a.light());
    md.append("\n| ratio A : B | value | against 3 : 1 | target |\n|---|---|---|---|\n");
    md.append(String.format(Locale.ROOT, "| CPU time (kernel) | %.3f | %+.2f %% | (the load) |%n",
        a.cpuRatio(), a.cpuVsTargetPercent()));
    md.append(String.format(Locale.ROOT, "| dynamic energy (collector) | %.3f | %+.2f %% | %s |%n",
        a.dynamicRatio(), a.errorVsTargetPercent(),
        Math.abs(a.errorVsTargetPercent()) <= ATTRIBUTION_TARGET_PERCENT ? "met" : "**missed**"));
    md.append(String.format(Locale.ROOT,
        "%nAttributed ratio against the measured CPU ratio: %+.3f %% (%s). The dynamic part of "
            + "each interval is (busy - idle) x utilisation, split by the CPU time each "
            + "container's tree used in the interval; the idle share is split by vcores, so it is "
            + "equal for A and B and left out of the ratio.%n",
        a.errorVsCpuPercent(),
        Math.abs(a.errorVsCpuPercent()) <= ATTRIBUTION_TARGET_PERCENT ? "within 5 %"
            : "**outside 5 %**"));
    md.append(partEnd(EnergyBenchmarkOptions.ATTRIBUTION)).append('\n');
    return md.toString();
  }

  private static void appendShare(StringBuilder md, String name, Share share) {
    ContainerEnergy e = share.energy();
    md.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.3f | %.3f | %.3f | %d |%n", name,
        share.busyProcesses(), share.cpu().toNanos() / 1e9, e.energyMicrojoules() / 1e6,
        e.idleMicrojoules() / 1e6, share.dynamicMicrojoules() / 1e6, e.samples()));
  }

  String overhead(Overhead o, Context context) {
    Measurements m = o.times();
    RoundStats joules = RoundStats.of(o.joules());
    StringBuilder md = new StringBuilder(partBegin(EnergyBenchmarkOptions.OVERHEAD)).append('\n');
    md.append(String.format(Locale.ROOT, "### 3. Metering overhead on wordcount2 "
        + "(target: at most %.0f %% of runtime)%n%n", OVERHEAD_TARGET_PERCENT));
    md.append(context.describe());
    md.append(String.format(Locale.ROOT,
        "- setup: one embedded cluster, %d NodeManagers x %d vcores / %d MB, the collector in "
            + "every NodeManager (Edison model, containers' utilisation); wordcount2 on %d files, "
            + "%.1f MB (SampleInputs, seed 2016), with `-Dfawn.energy.metering=true` and "
            + "`=false`; %d %s after one warm-up run (%.1f s, not counted), the order "
            + "alternating between rounds; same output checked; every task of a metered run "
            + "metered, none of an unmetered one%n"
            + "- times: wall seconds from submission to completion, in run order: %s%n%n",
        o.nodeManagers(), o.vcores(), o.memoryMb(), o.files(), o.bytes() / 1e6,
        m.runs(METERED), m.runs(METERED) == 1 ? "round" : "rounds", o.warmUpSeconds(),
        String.join(", ", o.order())));
    md.append("| variant | runs | median s | min s | max s | mean ± sd s "
        + "| spread (max-min)/median |\n");
    md.append("|---|---|---|---|---|---|---|\n");
    for (String variant : List.of(METERED, UNMETERED)) {
      RoundStats s = m.stats(variant);
      md.append(String.format(Locale.ROOT, "| %s | %d | %.2f | %.2f | %.2f | %s | %.1f %% |%n",
          variant, s.runs(), s.median(), s.min(), s.max(), s.meanSd("%.2f"),
          o.spreadPercent(variant)));
    }
    String paired = o.pairedPercent().stream()
        .map(p -> String.format(Locale.ROOT, "%+.1f %%", p)).collect(Collectors.joining(", "));
    double overhead = o.overheadPercent();
    md.append(String.format(Locale.ROOT,
        "%nMetered / unmetered: %.3f (median over median), i.e. %+.2f %% of runtime; paired "
            + "within each round: %s (median %+.1f %%, mean ± sd %s %%).%n",
        o.ratio(), overhead, paired, o.paired().median(), o.paired().meanSd("%.1f")));
    double noise = o.noisePercent();
    String verdict;
    if (m.runs(METERED) < 2 || m.runs(UNMETERED) < 2) {
      verdict = String.format(Locale.ROOT, "%s (one run each gives no estimate of the noise)",
          overhead <= OVERHEAD_TARGET_PERCENT ? "met" : "**missed**");
    } else if (noise > OVERHEAD_TARGET_PERCENT && Math.abs(overhead) <= noise) {
      verdict = String.format(Locale.ROOT, "not resolved by this run: the difference (%+.1f %%) "
          + "is inside the run-to-run noise (%.1f %%: the larger spread of the two variants, or "
          + "of the paired differences), which is itself larger than the 1 %% to be shown. The "
          + "run shows no overhead above the noise, not that it is under 1 %%", overhead, noise);
    } else if (overhead <= OVERHEAD_TARGET_PERCENT) {
      verdict = String.format(Locale.ROOT, "met (noise %.1f %%)", noise);
    } else {
      verdict = String.format(Locale.ROOT, "**missed** (%+.1f %%, noise %.1f %%)", overhead,
          noise);
    }
    md.append("Target: ").append(verdict).append(".\n");
    md.append(String.format(Locale.ROOT,
        "%nWhat metering adds to a task, measured directly: one `ENERGY` query through "
            + "`CollectorClient` at the task's end, which makes the collector take a fresh sample. "
            + "Over %d queries to an in-process collector (model meter, one container; not timed: "
            + "the first %d): median %.2f ms, 95th percentile %.2f ms, max %.2f ms. Even if all "
            + "%d tasks' queries ran one after the other on the job's critical path, that is "
            + "%.2f %% of the unmetered median runtime (plus loading a few small classes in each "
            + "task JVM, not timed): a bound on the task-side cost that the job times above are "
            + "too noisy to resolve.%n",
        o.queryMillis().size(), MeteringOverheadPart.QUERY_WARM_UP_COUNT, o.queryPercentile(50),
        o.queryPercentile(95), o.queryPercentile(100), o.tasksLaunched(),
        o.serialQueryBoundPercent()));
    md.append(String.format(Locale.ROOT,
        "%nWhat the metered runs bought: %.1f J in tasks (median of %d metered %s, mean ± sd "
            + "%s J; estimates from the model; the last metered run: %d tasks metered of %d "
            + "launched). Metering costs each task one loopback query at its end (the collector "
            + "takes a fresh sample to answer) and the counters it adds; the collector samples "
            + "every NodeManager at 1 Hz either way.%n",
        joules.median(), joules.runs(), joules.runs() == 1 ? "run" : "runs",
        joules.meanSd("%.1f"),
        o.tasksMetered(), o.tasksLaunched()));
    md.append(partEnd(EnergyBenchmarkOptions.OVERHEAD)).append('\n');
    return md.toString();
  }
}
