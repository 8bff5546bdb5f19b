package org.fawnpack.minicluster;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.application.Application;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.application.ApplicationState;
import org.fawnpack.energy.HistoryFormat;
import org.fawnpack.energy.NodeHistoryFormat;

/**
 * Waits for the embedded cluster's energy histories to be on HDFS: an application's files once
 * its NodeManagers stopped it, and every node's own segments up to a time. A report read right
 * after a job ends would otherwise miss the last nodes' files.
 */
final class EnergyHistoryWaits {
  private final List<NodeManager> nodeManagers;
  private final DistributedFileSystem fs;
  private final String historyDir;

  EnergyHistoryWaits(List<NodeManager> nodeManagers, DistributedFileSystem fs) {
    this.nodeManagers = List.copyOf(nodeManagers);
    this.fs = fs;
    this.historyDir = HistoryFormat.historyDir(nodeManagers.get(0).getConfig());
  }

  /** See {@link EmbeddedCluster#awaitEnergyHistory}. */
  boolean applicationsWritten(List<ApplicationId> ids, boolean collectors, Duration limit)
      throws InterruptedException, IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (anyOnANode(ids) || (collectors && !historyWritten(ids))) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(200); // polled: the NodeManagers and collectors give no event to wait on
    }
    return true;
  }

  /** See {@link EmbeddedCluster#awaitNodeHistories}. */
  boolean nodesReach(long untilMillis, Duration limit) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    Path nodes = NodeHistoryFormat.nodesDir(fs.getConf(), historyDir);
    while (!NodeHistoryReach.allReach(fs, nodes, nodeManagers.size(), untilMillis)) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(200); // polled: a collector writes on its own schedule
    }
    return true;
  }

  /** Whether every node that ran one of {@code ids} has a closed history file for it. */
  private boolean historyWritten(List<ApplicationId> ids) throws IOException {
    for (ApplicationId id : ids) {
      int nodes = 0;
      for (NodeManager nodeManager : nodeManagers) {
        nodes += nodeManager.getNMContext().getApplications().containsKey(id) ? 1 : 0;
      }
      Path dir = HistoryFormat.applicationDir(fs.getConf(), historyDir, id.toString());
      int closed = 0;
      if (fs.exists(dir)) {
        for (FileStatus file : fs.listStatus(dir)) {
          closed += fs.isFileClosed(file.getPath()) ? 1 : 0;
        }
      }
      if (closed < nodes) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a NodeManager has not yet told its aux services that one of {@code ids} stopped: it
   * does so as the application leaves RUNNING and FINISHING_CONTAINERS_WAIT (the application then
   * stays in the NodeManager's context for hours, until its logs are deleted).
   */
  private boolean anyOnANode(List<ApplicationId> ids) {
    for (NodeManager nodeManager : nodeManagers) {
      Map<ApplicationId, Application> apps = nodeManager.getNMContext().getApplications();
      for (ApplicationId id : ids) {
        ApplicationState state = apps.containsKey(id) ? apps.get(id).getApplicationState()
            : ApplicationState.FINISHED;
        if (state != ApplicationState.APPLICATION_RESOURCES_CLEANINGUP
            && state != ApplicationState.FINISHED) {
          return true;
        }
      }
    }
    return false;
  }
}
