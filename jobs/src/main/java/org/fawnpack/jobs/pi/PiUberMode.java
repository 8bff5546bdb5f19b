package org.fawnpack.jobs.pi;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.fawnpack.jobs.FrameworkTuning;
import org.fawnpack.input.InvalidConfigException;

/**
 * Runs a small pi job as an uber job: its maps run one after another inside the
 * ApplicationMaster's container, on as many threads as that container has vcores, instead of
 * each starting its own container and JVM. A pi map is pure computation, so when the whole job
 * is a few seconds of CPU the container and JVM starts cost more than running the maps in
 * parallel saves. The maps, their points and the counts are the same either way.
 *
 * <p>Chosen when the user did not set {@code mapreduce.job.ubertask.enable} (set it to force
 * either way), the job runs on YARN, the maps are within {@code mapreduce.job.ubertask.maxmaps}
 * and maps × samples is at most {@link #MAX_POINTS}. The container then asks for the vcores of
 * the largest running node (at most {@code yarn.scheduler.maximum-allocation-vcores}), and the
 * maps count on that many threads.
 */
final class PiUberMode {
  /** Largest maps × samples run as an uber job. */
  static final String MAX_POINTS = "fawn.jobs.pi.uber-max-points";
  /**
   * About 8 s of one desktop core at 7.5 ns a point, the order of what starting the containers
   * of a job costs; on wimpy nodes (several times slower a point) lower it.
   */
  static final long DEFAULT_MAX_POINTS = 1_000_000_000L;

  private PiUberMode() {}

  /**
   * Sets the job's configuration for uber mode when it fits; returns the threads the maps will
   * count on, or 0 when the job stays a normal one.
   */
  static int applyIfSmall(Configuration conf, int maps, long samples) throws IOException {
    long maxPoints = conf.getLong(MAX_POINTS, DEFAULT_MAX_POINTS);
    if (maxPoints < 0) {
      throw new InvalidConfigException(MAX_POINTS, MAX_POINTS + " = " + maxPoints
          + " must be 0 (never) or positive");
    }
    boolean onYarn = MRConfig.YARN_FRAMEWORK_NAME.equals(
        conf.getTrimmed(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME));
    if (!onYarn || FrameworkTuning.isUserSet(conf, MRJobConfig.JOB_UBERTASK_ENABLE)
        || maps > conf.getInt(MRJobConfig.JOB_UBERTASK_MAXMAPS, 9)
        || (double) maps * samples > maxPoints) {
      return 0;
    }
    int vcores = FrameworkTuning.isUserSet(conf, MRJobConfig.MAP_CPU_VCORES)
        ? conf.getInt(MRJobConfig.MAP_CPU_VCORES, 1) : largestNodeVcores(conf);
    conf.set(MRJobConfig.JOB_UBERTASK_ENABLE, "true", "pi uber mode");
    // Uber needs the map's vcores to fit the AM's container; the map then counts on them all.
    conf.set(MRJobConfig.MAP_CPU_VCORES, Integer.toString(vcores), "pi uber mode");
    conf.set(MRJobConfig.MR_AM_CPU_VCORES, Integer.toString(Math.max(vcores,
        conf.getInt(MRJobConfig.MR_AM_CPU_VCORES, MRJobConfig.DEFAULT_MR_AM_CPU_VCORES))),
        "pi uber mode");
    return vcores;
  }

  private static int largestNodeVcores(Configuration conf) throws IOException {
    int cap = conf.getInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES,
        YarnConfiguration.DEFAULT_RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES);
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      List<NodeReport> nodes = yarn.getNodeReports(NodeState.RUNNING);
      int largest = nodes.stream().mapToInt(n -> n.getCapability().getVirtualCores()).max()
          .orElse(1);
      return Math.max(1, Math.min(largest, cap));
    } catch (YarnException e) {
      throw new IOException("Cannot ask the ResourceManager for its nodes' vcores (for pi's uber"
          + " mode; set " + MRJobConfig.JOB_UBERTASK_ENABLE + "=false to skip it): "
          + e.getMessage(), e);
    }
  }
}
