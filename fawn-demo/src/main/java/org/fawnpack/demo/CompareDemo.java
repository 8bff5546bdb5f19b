package org.fawnpack.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fawnpack.energy.report.EnergyReport;
import org.fawnpack.energy.report.EnergyReportModel;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.EmbeddedClusterSpec;

/**
 * {@code ./fawn demo --compare}: the four count jobs on two embedded clusters, one after the
 * other (one JVM holds one embedded cluster at a time), each sized and powered by its profile,
 * then the two side by side as {@code fawn energy compare} prints them (seed 003's Table 8),
 * with the paper's own figures beside for reference.
 *
 * <p>Every joule is ESTIMATED: the collectors meter each node by its profile's power model,
 * driven by its containers' CPU time. And both clusters run on this one machine, so their wall
 * times say how YARN fitted each cluster's containers onto the same cores, not how an Edison
 * compares to a Dell: the demo shows the method and the tooling; the paper's rows show the
 * hardware.
 */
final class CompareDemo {
  /** What a test looks at on each cluster before it stops (the demo itself looks at nothing). */
  interface BeforeStop {
    void inspect(String cluster, EmbeddedCluster running, List<JobResult> rows) throws Exception;
  }

  private final DemoOptions options;
  private final PrintStream out;
  private final BeforeStop beforeStop;
  private final Map<String, List<EnergyReportModel>> reports = new LinkedHashMap<>();

  CompareDemo(DemoOptions options, PrintStream out) {
    this(options, out, (cluster, running, rows) -> { });
  }

  CompareDemo(DemoOptions options, PrintStream out, BeforeStop beforeStop) {
    this.options = options;
    this.out = out;
    this.beforeStop = beforeStop;
  }

  /** Each cluster's reports of its jobs, by cluster name, once {@link #run} has run. */
  Map<String, List<EnergyReportModel>> reports() {
    return reports;
  }

  /** One cluster of the comparison. */
  private record Side(String profile, int slaves) {
    String name() {
      return profile + " x" + slaves;
    }
  }

  int run() throws Exception {
    long started = System.nanoTime();
    List<Side> sides = List.of(new Side(options.profile(), options.slaves()),
        new Side(options.compare().profile(), options.compare().slaves()));
    out.printf("Comparing two clusters on the same jobs: %s, then %s (each an embedded cluster"
        + " of its own, one after the other).%n", sides.get(0).name(), sides.get(1).name());
    List<String> failed = new ArrayList<>();
    List<String> jobs = new ArrayList<>();
    for (Side side : sides) {
      List<JobResult> rows = runOn(side);
      for (JobResult row : rows) {
        if (!row.succeeded()) {
          failed.add(side.name() + " " + row.job());
        }
        if (!jobs.contains(row.job())) {
          jobs.add(row.job());
        }
      }
    }
    out.println();
    out.println("ESTIMATED: each node's power comes from its profile's power model (idle to busy"
        + " by its containers' CPU time), not a meter; both clusters ran on this one machine, so"
        + " wall times show how YARN fitted each cluster's containers onto the same cores, not"
        + " the hardware's speed.");
    if (reports.size() == sides.size()) {
      out.print(EnergyReport.clusterComparisonText(reports));
      Path page = options.outDir().resolve("compare.html");
      try {
        EnergyReport.writeClusterComparisonHtml(reports, page);
        out.printf("Comparison page: %s%n", page.toAbsolutePath());
      } catch (IOException | RuntimeException e) {
        out.println("Comparison page not written: " + e.getMessage());
      }
    }
    out.println();
    out.print(PaperTable8.text(jobs, sides.get(0).profile(), sides.get(0).slaves(),
        sides.get(1).profile(), sides.get(1).slaves()));
    out.printf("%nThe comparison took %.0f s.%n", (System.nanoTime() - started) / 1e9);
    if (!failed.isEmpty()) {
      out.println("FAILED: " + String.join(", ", failed) + " (see Checks above); exit code 1.");
    }
    return failed.isEmpty() ? 0 : 1;
  }

  /** Runs the count jobs on {@code side}'s cluster and keeps their reports under its name. */
  private List<JobResult> runOn(Side side) throws Exception {
    Path dir = options.outDir().resolve("compare").resolve(side.profile());
    EmbeddedClusterSpec spec = DemoProfile.apply(EmbeddedCluster.builder()
        .name("demo-" + side.profile()).baseDir(dir.resolve("cluster")), side.profile(),
        side.slaves(), dir.resolve("profile-conf"), out).spec();
    out.printf("%n== %s: HDFS, YARN (%d NodeManagers x %d vcores / %d MB; ApplicationMasters on"
        + " a master NodeManager of %d MB), JobHistory ...%n", side.name(), spec.nodeManagers(),
        spec.nodeVcores(), spec.nodeMemoryMb(), spec.masterMemoryMb());
    out.println(Demo.powerModels(spec, side.profile()));
    EmbeddedCluster cluster = EmbeddedCluster.of(spec).start();
    try {
      List<JobResult> rows = new CountJobsDemo(options, out).run(cluster,
          new DemoJobRunner(cluster, out, options.jobOptions()));
      out.println();
      out.print(SummaryTable.text(rows));
      SummaryTable.writeJson(rows, dir.resolve("summary.json"));
      try {
        reports.put(side.name(), DemoReports.of(cluster, rows, out));
      } catch (IOException | RuntimeException e) {
        out.println(side.name() + ": energy reports not read: " + e.getMessage());
      }
      beforeStop.inspect(side.name(), cluster, rows);
      return rows;
    } finally {
      out.printf("Stopping the %s cluster (about 20 s) ...%n", side.name());
      Demo.closeWithin(cluster, Demo.STOP_LIMIT_SECONDS, out);
    }
  }
}
