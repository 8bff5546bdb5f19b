package org.fawnpack.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FileSystem;
import org.fawnpack.energy.EnergyKeys;
import org.fawnpack.energy.report.EnergyReport;
import org.fawnpack.energy.report.EnergyReportModel;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.jobs.LogCount;
import org.fawnpack.jobs.LogCount2;
import org.fawnpack.jobs.WordCount;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.EmbeddedClusterSpec;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.SampleInputs;

/**
 * {@code ./fawn demo}: the whole pack on an embedded cluster in one JVM. Starts HDFS + YARN +
 * JobHistory with four small NodeManagers, writes many small text and log files, runs each
 * baseline job beside its optimised twin, checks the twins agree, and prints the table. With
 * {@code --all} the other jobs of the jar follow on the same cluster ({@link AllJobsDemo});
 * with {@code --compare} the count jobs run on a second cluster too ({@link CompareDemo}).
 */
public final class Demo {

  /** How long a stop may take before the demo exits without it. */
  static final int STOP_LIMIT_SECONDS = 120;

  private final DemoOptions options;
  private final PrintStream out;

  Demo(DemoOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    if (java.util.Arrays.asList(args).contains("--help") || java.util.Arrays.asList(args).contains("-h")) {
      System.out.println(DemoOptions.USAGE);
      return;
    }
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      System.err.println(DemoOptions.USAGE);
      System.exit(JobTool.EXIT_USAGE);
      return;
    }
    String option = "--profile " + options.profile();
    try {
      DemoProfile.slaveProfile(options.profile());
      if (options.compare() != null) {
        option = "--against " + options.compare().profile();
        DemoProfile.slaveProfile(options.compare().profile());
      }
    } catch (IllegalArgumentException | org.fawnpack.configs.ConfigFileException e) {
      System.err.println("demo: " + option + ": " + e.getMessage());
      System.exit(JobTool.EXIT_USAGE);
      return;
    }
    System.exit(new Demo(options, System.out).run());
  }

  int run() throws Exception {
    if (options.compare() != null) {
      return new CompareDemo(options, out).run();
    }
    long started = System.nanoTime();
    EmbeddedClusterSpec spec = DemoProfile.apply(EmbeddedCluster.builder().name("demo")
        .baseDir(options.outDir().resolve("cluster")), options.profile(), options.slaves(),
        options.outDir().resolve("profile-conf"), out).spec();
    EmbeddedCluster cluster = EmbeddedCluster.of(spec);
    out.printf("Starting the embedded cluster: HDFS, YARN (%d NodeManagers x %d vcores / %d MB,"
        + " profile %s; ApplicationMasters on a master NodeManager of %d MB), JobHistory ...%n",
        spec.nodeManagers(), spec.nodeVcores(), spec.nodeMemoryMb(), options.profile(),
        spec.masterMemoryMb());
    out.println(powerModels(spec, options.profile()));
    if (options.all()) {
      out.printf("--all: then teragen (%,d rows), terasort, teravalidate, pi (%d x %,d points),"
          + " md5gen (2^%d values) and md5search.%n", options.teraRows(), AllJobsDemo.PI_MAPS,
          AllJobsDemo.PI_SAMPLES_PER_MAP, options.md5Bits());
    }
    cluster.start();
    try {
      List<JobResult> rows = runJobs(cluster);
      out.println();
      out.print(SummaryTable.text(rows));
      Path summary = options.outDir().resolve("summary.json");
      SummaryTable.writeJson(rows, summary);
      writeEnergyComparison(cluster, rows, options.outDir().resolve("energy.html"));
      out.printf("%nSummary written to %s; demo took %.0f s.%n", summary.toAbsolutePath(),
          (System.nanoTime() - started) / 1e9);
      List<String> failed = rows.stream().filter(r -> !r.succeeded()).map(JobResult::job)
          .toList();
      if (!failed.isEmpty()) {
        out.println("FAILED: " + String.join(", ", failed) + " (see Checks above); exit code 1.");
      }
      boolean allOk = failed.isEmpty();
      if (options.keep()) {
        keepRunning(cluster);
      }
      return allOk ? 0 : 1;
    } finally {
      out.println("Stopping the embedded cluster (about 20 s) ...");
      closeWithin(cluster, STOP_LIMIT_SECONDS, out); // one line per service, from its log
    }
  }

  private List<JobResult> runJobs(EmbeddedCluster cluster) throws Exception {
    if (options.kvJobs()) {
      return new KvJobsDemo(new DemoJobRunner(cluster, out, options.jobOptions()), cluster, out,
          options.outDir().resolve("kv")).run();
    }
    DemoJobRunner runner = new DemoJobRunner(cluster, out, options.jobOptions());
    List<JobResult> rows = new CountJobsDemo(options, out).run(cluster, runner);
    if (options.all()) {
      rows.addAll(new AllJobsDemo(runner, out, options, new Random()).run());
    }
    return rows;
  }

  /** What the collectors meter with: each side's power model, so the joules are estimates. */
  static String powerModels(EmbeddedClusterSpec spec, String profile) {
    return String.format(java.util.Locale.ROOT, "Each NodeManager runs the fawn_energy collector"
        + " with its profile's power model (%s: %s W idle, %s W busy; the master apart: %s W"
        + " idle, %s W busy): the joules are estimates.", profile,
        model(spec.energyProperties(), "idle-watts"), model(spec.energyProperties(),
            "busy-watts"), model(spec.masterEnergyProperties(), "idle-watts"),
        model(spec.masterEnergyProperties(), "busy-watts"));
  }

  private static String model(java.util.Map<String, String> energy, String option) {
    String meter = energy.get(EnergyKeys.METERS.name());
    return energy.getOrDefault(EnergyKeys.meterKey(meter, option), "?");
  }

  /**
   * The demo's jobs side by side as an HTML page (the energy report's comparison, read back from
   * the JobHistory server as a user's {@code fawn energy report JOB1 JOB2 ...} would). A page
   * that cannot be written is reported, not fatal: the jobs and their checks are the demo.
   */
  private void writeEnergyComparison(EmbeddedCluster cluster, List<JobResult> rows, Path page) {
    List<String> jobIds = rows.stream().map(JobResult::jobId).filter(id -> id != null).toList();
    if (jobIds.size() < 2) {
      return;
    }
    try {
      List<EnergyReportModel> models = DemoReports.of(cluster, rows, out);
      EnergyReport.writeComparisonHtml(models, page);
      out.printf("Energy comparison of the %d jobs: %s%n", models.size(), page.toAbsolutePath());
    } catch (IOException | RuntimeException e) {
      out.println("Energy comparison page not written: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      out.println("Energy comparison page not written: interrupted");
    }
  }

  /**
   * Stops the cluster, or gives up after {@code limitSeconds}: a daemon that hangs in its stop
   * must not keep the terminal.
   */
  static void closeWithin(EmbeddedCluster cluster, int limitSeconds, PrintStream out)
      throws InterruptedException {
    Thread stopper = new Thread(cluster::close, "demo-stop");
    stopper.start();
    stopper.join(limitSeconds * 1000L);
    if (stopper.isAlive()) {
      out.printf("The cluster did not stop within %d s; exiting without waiting for it.%n",
          limitSeconds);
      out.flush();
      Runtime.getRuntime().halt(1);
    }
  }

  private void keepRunning(EmbeddedCluster cluster) throws InterruptedException {
    out.println("\nThe cluster stays up (--keep). Web UIs (a job's joules: JobHistory, the job,"
        + " Counters, group FAWN energy):");
    cluster.webAddresses().forEach((name, url) -> out.printf("  %-15s %s%n", name, url));
    out.printf("  client config   %s%n", cluster.clientConfDir());
    StopSignals signals = StopSignals.install();
    out.println("Press Ctrl-C to stop it.");
    out.println(signals.await() + ": stopping.");
  }
}
