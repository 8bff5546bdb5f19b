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
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.input.ClusterVcores;
import org.fawnpack.jobs.FrameworkTuning;
import org.fawnpack.jobs.JobKeys;

/**
 * Reads what {@link PiPlacement#decide} needs from the job's configuration and the
 * ResourceManager, and writes its choice into the configuration: uber mode on or off, the map
 * containers' vcores, the number of map tasks.
 */
final class PiPlanner {
  /** Largest maps × samples run as an uber job (when the AM runs on the map nodes). */
  static final String MAX_POINTS = JobKeys.PI_UBER_MAX_POINTS.name();
  static final long DEFAULT_MAX_POINTS = JobKeys.PI_UBER_MAX_POINTS.defaultValue();
  /** mapred-default's {@code mapreduce.job.ubertask.maxmaps}. */
  private static final int DEFAULT_UBER_MAX_MAPS = 9;

  private PiPlanner() {}

  /** Decides where the maps run and sets the job's configuration for it. */
  static PiPlacement apply(Configuration conf, int maps, long samples) throws IOException {
    PiPlacement.Settings settings = settings(conf, maps, samples);
    boolean onYarn = MRConfig.YARN_FRAMEWORK_NAME.equals(
        conf.getTrimmed(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME));
    PiPlacement placement = onYarn
        ? PiPlacement.decide(settings, runningNodes(conf), ClusterVcores.forJob(conf))
        // The local job runner runs the maps in this JVM, one at a time: no uber mode there.
        : new PiPlacement(false, "", Math.max(1, settings.userMapVcores()),
            Math.min(maps, ClusterVcores.forJob(conf)), "local job runner");
    String source = "pi placement";
    if (settings.userUber() == null) {
      conf.set(MRJobConfig.JOB_UBERTASK_ENABLE, Boolean.toString(placement.uber()), source);
    }
    conf.set(MRJobConfig.MAP_CPU_VCORES, Integer.toString(placement.vcores()), source);
    if (placement.uber()) {
      // Uber needs the map's vcores to fit the AM's container; the map then counts on them all.
      conf.set(MRJobConfig.MR_AM_CPU_VCORES, Integer.toString(Math.max(placement.vcores(),
          conf.getInt(MRJobConfig.MR_AM_CPU_VCORES, MRJobConfig.DEFAULT_MR_AM_CPU_VCORES))),
          source);
    }
    conf.setInt(PiInputFormat.TASKS, placement.tasks());
    return placement;
  }

  /** The settings the rule reads; the labels as YARNRunner and the AM's allocator apply them. */
  static PiPlacement.Settings settings(Configuration conf, int maps, long samples) {
    long maxPoints = JobKeys.PI_UBER_MAX_POINTS.read(conf::get);
    Boolean userUber = FrameworkTuning.isUserSet(conf, MRJobConfig.JOB_UBERTASK_ENABLE)
        ? conf.getBoolean(MRJobConfig.JOB_UBERTASK_ENABLE, false) : null;
    int userMapVcores = FrameworkTuning.isUserSet(conf, MRJobConfig.MAP_CPU_VCORES)
        ? conf.getInt(MRJobConfig.MAP_CPU_VCORES, 1) : 0;
    if (userMapVcores < 0) {
      throw new InvalidConfigValueException(MRJobConfig.MAP_CPU_VCORES, userMapVcores,
          "a whole number, not negative");
    }
    String jobLabel = label(conf, MRJobConfig.JOB_NODE_LABEL_EXP, "");
    return new PiPlacement.Settings(userUber, label(conf, MRJobConfig.AM_NODE_LABEL_EXP, jobLabel),
        label(conf, MRJobConfig.MAP_NODE_LABEL_EXP, jobLabel), maps, samples, maxPoints,
        conf.getInt(MRJobConfig.JOB_UBERTASK_MAXMAPS, DEFAULT_UBER_MAX_MAPS), userMapVcores,
        conf.getInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES,
            YarnConfiguration.DEFAULT_RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES));
  }

  /** A label expression; blank counts as unset, as YARNRunner treats it. */
  private static String label(Configuration conf, String key, String unset) {
    String value = conf.getTrimmed(key, "");
    return value.isEmpty() ? unset : value;
  }

  /** The ResourceManager's RUNNING nodes with their labels and sizes. */
  static List<NodeReport> runningNodes(Configuration conf) throws IOException {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      return yarn.getNodeReports(NodeState.RUNNING);
    } catch (YarnException e) {
      throw new IOException("Cannot ask the ResourceManager for its nodes (to place pi's maps):"
          + " " + e.getMessage(), e);
    }
  }
}
