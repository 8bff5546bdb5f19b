package org.fawnpack.integration;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ClassUtil;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.report.JobHistoryClient;
import org.fawnpack.jobs.WordCount;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.MiniClusterExtension;

/** Runs the pack's tools against a test cluster, with the job jar tasks need. */
final class ClusterJobs {

  private ClusterJobs() {}

  /**
   * The one cluster (two NodeManagers) the job test classes share in this JVM: a start and a
   * stop cost about 36 s, so six classes save three minutes. Each class keeps to its own HDFS
   * paths and asks JobHistory about its own jobs only.
   */
  static MiniClusterExtension sharedCluster() {
    return MiniClusterExtension.shared("JobTests", b -> b.nodeManagers(2));
  }

  /**
   * The fawn-jobs.jar to ship to tasks: the jar WordCount was loaded from, else the one the
   * build wrote (when the reactor resolved the jobs module to its classes directory).
   */
  static String jobsJar() {
    String loadedFrom = ClassUtil.findContainingJar(WordCount.class);
    if (loadedFrom != null) {
      return loadedFrom;
    }
    Path built = Path.of(System.getProperty("fawn.jobs.jar", "../jobs/target/fawn-jobs.jar"));
    if (!Files.isRegularFile(built)) {
      throw new IllegalStateException("No fawn-jobs.jar at " + built.toAbsolutePath()
          + ": build it first (mvn -DskipTests package)");
    }
    return built.toAbsolutePath().toString();
  }

  /** The cluster's JobHistory server, through the report's REST client (the one we ship). */
  static JobHistoryClient history(EmbeddedCluster cluster) {
    return JobHistoryClient.fromConf(cluster.clientConf());
  }

  /** Runs the tool with the cluster's client configuration plus the job jar. */
  static int run(EmbeddedCluster cluster, Tool tool, String... args) throws Exception {
    Configuration conf = cluster.clientConf();
    conf.set("mapreduce.job.jar", jobsJar());
    return ToolRunner.run(conf, tool, args);
  }
}
