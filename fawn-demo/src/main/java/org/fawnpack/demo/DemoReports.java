package org.fawnpack.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.fawnpack.energy.report.EnergyReport;
import org.fawnpack.energy.report.EnergyReportModel;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * The energy reports of the demo's jobs, read back from the cluster's JobHistory server as a
 * user's {@code fawn energy report JOB} would, once the collectors have written what the
 * reports read (each job's application files, every node's own history past the last job).
 */
final class DemoReports {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private DemoReports() {}

  /** The report of each row's job, in order (rows without a job are left out). */
  static List<EnergyReportModel> of(EmbeddedCluster cluster, List<JobResult> rows,
      PrintStream out) throws IOException, InterruptedException {
    List<String> jobIds = rows.stream().map(JobResult::jobId).filter(id -> id != null).toList();
    List<String> applications = jobIds.stream()
        .map(id -> id.replaceFirst("^job_", "application_")).toList();
    if (!cluster.awaitEnergyHistory(applications, WAIT)) {
      out.println("Energy reports: a job's application is still on a node, or its energy"
          + " history not written, after " + WAIT.toSeconds() + " s; its application joules"
          + " may be missing");
    }
    if (!cluster.awaitNodeHistories(System.currentTimeMillis(), WAIT)) {
      out.println("Energy reports: a node's own energy history does not reach the last job's"
          + " end after " + WAIT.toSeconds() + " s; its cluster joules count what there is");
    }
    List<EnergyReportModel> models = new ArrayList<>();
    for (String jobId : jobIds) {
      models.add(EnergyReport.report(cluster.clientConf(), jobId));
    }
    return models;
  }
}
