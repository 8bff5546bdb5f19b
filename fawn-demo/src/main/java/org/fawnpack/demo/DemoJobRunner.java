package org.fawnpack.demo;

import java.io.PrintStream;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * Runs the jar's tools on the demo's cluster the way {@code hadoop jar} would (ToolRunner, so the
 * tools parse their own arguments), one summary row per job.
 */
final class DemoJobRunner {

  private final EmbeddedCluster cluster;
  private final PrintStream out;
  private final java.util.List<String> jobOptions;

  DemoJobRunner(EmbeddedCluster cluster, PrintStream out) {
    this(cluster, out, java.util.List.of());
  }

  /** @param jobOptions generic options ({@code -D key=value}) given to every job */
  DemoJobRunner(EmbeddedCluster cluster, PrintStream out, java.util.List<String> jobOptions) {
    this.cluster = cluster;
    this.out = out;
    this.jobOptions = java.util.List.copyOf(jobOptions);
  }

  /**
   * Runs {@code tool} with {@code args}; the row fails when the tool exits non-zero (teravalidate
   * exits 3 for invalid data even though its job succeeded).
   *
   * @throws IllegalStateException when the tool refused its arguments and submitted nothing: the
   *     demo built them, so that is a bug, not a result
   */
  JobResult run(JobTool tool, WorkUnit work, String... args) throws Exception {
    java.util.List<String> all = new java.util.ArrayList<>(jobOptions);
    all.addAll(java.util.List.of(args));
    out.printf("%nRunning %s %s ...%n", tool.name(), String.join(" ", all));
    int rc = ToolRunner.run(cluster.clientConf(), tool, all.toArray(new String[0]));
    if (tool.lastJob() == null) {
      throw new IllegalStateException(tool.name() + " did not run (exit code " + rc + ")");
    }
    JobResult row = JobResult.of(tool.name(), tool.lastJob(), tool.lastWallMillis(), work);
    return rc == 0 ? row : row.failed(tool.name() + " exited with " + rc);
  }
}
