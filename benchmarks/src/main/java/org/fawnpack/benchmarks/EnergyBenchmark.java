package org.fawnpack.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.jobs.JobTool;

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

  private final EnergyBenchmarkOptions options;
  private final PrintStream out;

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
      runs.add(new SamplerCostPart(options, out).samplerCost("host"));
      runs.add(new SamplerCostPart(options, out).samplerCost("containers"));
      publish(report, EnergyBenchmarkOptions.SAMPLER, report.sampler(runs, start.context()));
    }
    if (options.runs(EnergyBenchmarkOptions.ATTRIBUTION)) {
      Start start = new Start();
      EnergyBenchmarkReport.Attribution result = new AttributionPart(options, out).attribution();
      publish(report, EnergyBenchmarkOptions.ATTRIBUTION,
          report.attribution(result, start.context()));
    }
    if (options.runs(EnergyBenchmarkOptions.OVERHEAD)) {
      Start start = new Start();
      EnergyBenchmarkReport.Overhead result = new MeteringOverheadPart(options, out).overhead();
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
}
