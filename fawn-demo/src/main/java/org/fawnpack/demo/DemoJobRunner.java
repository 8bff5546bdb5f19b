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

  DemoJobRunner(EmbeddedCluster cluster, PrintStream out) {
    this.cluster = cluster;
    this.out = out;
  }

  /**
   * Runs {@code tool} with {@code args}; the row fails when the tool exits non-zero (teravalidate
   * exits 3 for invalid data even though its job succeeded).
   *
   * @throws IllegalStateException when the tool refused its arguments and submitted nothing: the
   *     demo built them, so that is a bug, not a result
   */
  JobResult run(JobTool tool, WorkUnit work, String... args) throws Exception {
    out.printf("%nRunning %s %s ...%n", tool.name(), String.join(" ", args));
    int rc = ToolRunner.run(cluster.clientConf(), tool, args);
    if (tool.lastJob() == null) {
      throw new IllegalStateException(tool.name() + " did not run (exit code " + rc + ")");
    }
    JobResult row = JobResult.of(tool.name(), tool.lastJob(), tool.lastWallMillis(), work);
    return rc == 0 ? row : row.failed(tool.name() + " exited with " + rc);
  }
}
