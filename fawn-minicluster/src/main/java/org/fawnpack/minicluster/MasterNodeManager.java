package org.fawnpack.minicluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.webapp.util.WebAppUtils;

/**
 * The embedded cluster's master NodeManager, started beside the mini cluster's slaves with a
 * configuration of its own, as a real master has its own yarn-site: its energy collector runs
 * from a manifest of its own ({@code fawn.energy.node.role=master}, the master's power model),
 * so cluster joules leave the master apart as the papers do. The mini cluster gives all of its
 * NodeManagers one configuration, so the master cannot be one of them.
 */
final class MasterNodeManager {
  /** How long the ResourceManager may take to see the master register. */
  private static final Duration REGISTER_LIMIT = Duration.ofSeconds(60);

  private MasterNodeManager() {}

  /**
   * Starts a NodeManager of {@code memoryMb} and {@code vcores} working under {@code dir}, with
   * {@code yarnConf} (the running mini cluster's: its ResourceManager's addresses) and the aux
   * services of {@code manifest}, and waits until {@code rm} lists it.
   */
  static NodeManager start(Configuration yarnConf, Path dir, String manifest, int memoryMb,
      int vcores, ResourceManager rm) throws IOException, InterruptedException {
    YarnConfiguration conf = new YarnConfiguration(yarnConf);
    Path local = Files.createDirectories(dir.resolve("local"));
    Path logs = Files.createDirectories(dir.resolve("logs"));
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, local.toString());
    conf.set(YarnConfiguration.NM_LOG_DIRS, logs.toString());
    // Any free ports, as the mini cluster gives its own NodeManagers.
    String host = MiniYARNCluster.getHostname();
    conf.set(YarnConfiguration.NM_ADDRESS, host + ":0");
    conf.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, host + ":0");
    WebAppUtils.setNMWebAppHostNameAndPort(conf, host, 0);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, memoryMb);
    conf.setInt(YarnConfiguration.NM_VCORES, vcores);
    conf.setBoolean(YarnConfiguration.NM_ENABLE_HARDWARE_CAPABILITY_DETECTION, false);
    if (manifest != null) { // null: the cluster runs no collector, only the shuffle
      conf.set(YarnConfiguration.NM_AUX_SERVICES_MANIFEST, manifest);
    }
    NodeManager nodeManager = new NodeManager();
    nodeManager.init(conf);
    nodeManager.start();
    boolean registered = false;
    try {
      awaitRegistered(rm, nodeManager);
      registered = true;
      return nodeManager;
    } finally {
      if (!registered) {
        nodeManager.stop();
      }
    }
  }

  private static void awaitRegistered(ResourceManager rm, NodeManager nodeManager)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + REGISTER_LIMIT.toNanos();
    while (true) {
      NodeId id = nodeManager.getNMContext().getNodeId();
      if (id != null && rm.getRMContext().getRMNodes().containsKey(id)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException("the master NodeManager " + id + " did not register with the"
            + " ResourceManager within " + REGISTER_LIMIT.toSeconds() + " s");
      }
      Thread.sleep(100); // polled: registration gives the caller no event
    }
  }
}
