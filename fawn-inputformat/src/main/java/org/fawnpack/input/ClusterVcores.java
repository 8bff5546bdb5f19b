package org.fawnpack.input;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds how many vcores a job's map tasks can use: the explicit setting, else the
 * ResourceManager's running nodes, else this machine's processors (local job runner).
 * Public for the jobs that size themselves by the cluster (terasort's maps and reducers).
 */
public final class ClusterVcores {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterVcores.class);

  private ClusterVcores() {}

  /**
   * Vcores for the job's maps: {@code fawn.input.combine.vcores} when set, else the
   * ResourceManager's running nodes less the AM's share, else this machine's processors.
   */
  public static int forJob(Configuration conf) throws IOException {
    int explicit = FawnInputConfig.explicitVcores(conf);
    if (explicit > 0) {
      return explicit;
    }
    String framework = conf.getTrimmed(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    if (MRConfig.YARN_FRAMEWORK_NAME.equals(framework)) {
      return fromResourceManager(conf);
    }
    return Runtime.getRuntime().availableProcessors();
  }

  /**
   * Sums the vcores of the RUNNING nodes whose labels admit the job's maps. Nodes with a label
   * (such as the brawny master that only hosts ApplicationMasters) are left out unless the job
   * sends its maps to that label. When the job's ApplicationMaster will run on those same nodes,
   * its vcores are taken off: with one split per remaining vcore every map starts in the first
   * wave, instead of one map waiting a whole map's time for a second wave.
   */
  private static int fromResourceManager(Configuration conf) throws IOException {
    String mapLabel = conf.getTrimmed(MRJobConfig.MAP_NODE_LABEL_EXP, "");
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      List<NodeReport> nodes = yarn.getNodeReports(NodeState.RUNNING);
      int vcores = 0;
      for (NodeReport node : nodes) {
        if (admitsMaps(node.getNodeLabels(), mapLabel)) {
          vcores += node.getCapability().getVirtualCores();
        }
      }
      if (vcores < 1) {
        throw new IOException("The ResourceManager reports no running node for map tasks"
            + (mapLabel.isEmpty() ? "" : " with label '" + mapLabel + "'") + " (" + nodes.size()
            + " running nodes); set " + FawnInputConfig.VCORES.name() + " to size the splits by hand");
      }
      int amVcores = amSharesMapNodes(conf, mapLabel)
          ? conf.getInt(MRJobConfig.MR_AM_CPU_VCORES, MRJobConfig.DEFAULT_MR_AM_CPU_VCORES) : 0;
      int forMaps = Math.max(1, vcores - amVcores);
      LOG.info("Sizing combined splits for {} vcores ({} on {} running nodes, {} kept for the"
          + " ApplicationMaster)", forMaps, vcores, nodes.size(), vcores - forMaps);
      return forMaps;
    } catch (YarnException e) {
      throw new IOException("Cannot ask the ResourceManager for the cluster's vcores: "
          + e.getMessage() + "; set " + FawnInputConfig.VCORES.name() + " to size the splits by hand", e);
    }
  }

  /** The AM runs among the map nodes unless it is sent to a label the maps do not use. */
  static boolean amSharesMapNodes(Configuration conf, String mapLabel) {
    String amLabel = conf.getTrimmed(MRJobConfig.AM_NODE_LABEL_EXP, "");
    return amLabel.equals(mapLabel);
  }

  static boolean admitsMaps(Set<String> nodeLabels, String mapLabel) {
    boolean unlabelled = nodeLabels == null || nodeLabels.isEmpty();
    return mapLabel.isEmpty() ? unlabelled : !unlabelled && nodeLabels.contains(mapLabel);
  }
}
