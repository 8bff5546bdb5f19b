package org.fawnpack.minicluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS + YARN + MapReduce JobHistory in one JVM, with NodeManagers sized like wimpy nodes.
 *
 * <pre>{@code
 * try (EmbeddedCluster cluster = EmbeddedCluster.builder().nodeManagers(4).build().start()) {
 *   Configuration conf = cluster.clientConf(); // submit jobs with this
 * }
 * }</pre>
 *
 * <p>Every NodeManager gets the same size through the ResourceManager's
 * {@code updateNodeResource} (the mini cluster itself gives each the same 4 GB). The scheduler
 * counts vcores as well as memory (DominantResourceCalculator), so a 2-vcore node runs two
 * 1-vcore containers at once, as a real Edison does.
 */
public final class EmbeddedCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

  /**
   * Guice warns (through java.util.logging) once per web UI that several run in one JVM, which
   * is what an embedded cluster is. Held in a field so the level is not garbage-collected.
   */
  private static final java.util.logging.Logger GUICE_SERVLET_LOG =
      java.util.logging.Logger.getLogger("com.google.inject.servlet");

  static {
    GUICE_SERVLET_LOG.setLevel(java.util.logging.Level.SEVERE);
  }

  private final EmbeddedClusterSpec spec;
  private MiniDFSCluster dfs;
  private MiniMRYarnCluster yarn;
  private NodeManager master; // null when the spec has no master NodeManager
  private Configuration clientConf;

  private EmbeddedCluster(EmbeddedClusterSpec spec) {
    this.spec = spec;
  }

  /** A builder with the defaults of {@link EmbeddedClusterSpec}. */
  public static EmbeddedClusterSpec.Builder builder() {
    return EmbeddedClusterSpec.builder();
  }

  /** A cluster of {@code spec}, not started yet (the demo prints the spec before it starts). */
  public static EmbeddedCluster of(EmbeddedClusterSpec spec) {
    return new EmbeddedCluster(spec);
  }

  /** Starts HDFS, then YARN with the JobHistory server, then resizes the NodeManagers. */
  public EmbeddedCluster start() throws IOException {
    Files.createDirectories(spec.baseDir());
    Configuration conf = spec.clusterConf();
    long started = System.nanoTime();
    boolean ok = false;
    try {
      dfs = new MiniDFSCluster.Builder(conf, spec.baseDir().resolve("dfs").toFile())
          .numDataNodes(spec.dataNodes())
          .build();
      dfs.waitClusterUp();
      conf.set(FileSystem.FS_DEFAULT_NAME_KEY, dfs.getFileSystem().getUri().toString());

      String masterManifest = null;
      if (spec.energyCollector()) {
        AuxServicesManifest.install(dfs.getFileSystem(), spec.energyProperties(), conf);
        masterManifest = AuxServicesManifest.write(dfs.getFileSystem(),
            AuxServicesManifest.MASTER_LOCATION, spec.masterEnergyProperties()).toString();
      }
      yarn = new MiniMRYarnCluster(spec.name(), spec.nodeManagers());
      yarn.init(conf);
      yarn.start();
      if (spec.hasMasterNodeManager()) {
        try {
          master = MasterNodeManager.start(yarn.getConfig(), spec.baseDir().resolve("master-nm"),
              masterManifest, spec.masterMemoryMb(), spec.masterVcores(),
              yarn.getResourceManager());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted starting the master NodeManager");
        }
      }
      WebAppFilters.giveEachItsOwn(yarn, nodeManagers());
      PrometheusSinks.registerEach(WebAppFilters.webApps(yarn, nodeManagers()));
      resizeNodeManagers();
      clientConf = new Configuration(yarn.getConfig());
      // MiniMRYarnCluster sets uber mode off explicitly (for Hadoop's own non-uber tests); a real
      // cluster leaves it at mapred-default's false, which a job may override (pi does for
      // small totals). Unset, jobs see the key as on a real cluster.
      clientConf.unset(MRJobConfig.JOB_UBERTASK_ENABLE);
      writeClientConf();
      ok = true;
      LOG.info("Embedded cluster '{}' up in {} s: {} NodeManagers of {} vcores / {} MB{}",
          spec.name(), (System.nanoTime() - started) / 1_000_000_000L, spec.nodeManagers(),
          spec.nodeVcores(), spec.nodeMemoryMb(), spec.hasMasterNodeManager()
              ? " + a master NodeManager of " + spec.masterVcores() + " vcores / "
              + spec.masterMemoryMb() + " MB for the AMs" : "");
      return this;
    } finally {
      if (!ok) {
        close();
      }
    }
  }

  private void resizeNodeManagers() throws IOException {
    ResourceManager rm = yarn.getResourceManager();
    Map<NodeId, ResourceOption> sizes = new HashMap<>();
    Resource size = Resource.newInstance(spec.nodeMemoryMb(), spec.nodeVcores());
    for (NodeId node : rm.getRMContext().getRMNodes().keySet()) {
      sizes.put(node, ResourceOption.newInstance(size, -1));
    }
    if (sizes.size() != spec.totalNodeManagers()) {
      throw new IOException("Expected " + spec.totalNodeManagers() + " NodeManagers registered"
          + " with the ResourceManager, found " + sizes.size());
    }
    NodeId master = spec.hasMasterNodeManager() ? masterNodeId() : null;
    if (master != null) {
      sizes.put(master, ResourceOption.newInstance(
          Resource.newInstance(spec.masterMemoryMb(), spec.masterVcores()), -1));
    }
    try {
      rm.getRMContext().getRMAdminService().updateNodeResource(UpdateNodeResourceRequest.newInstance(sizes));
      if (master != null) {
        RMNodeLabelsManager labels = rm.getRMContext().getNodeLabelManager();
        labels.addToCluserNodeLabelsWithDefaultExclusivity(
            Set.of(EmbeddedClusterSpec.MASTER_LABEL));
        labels.replaceLabelsOnNode(Map.of(master, Set.of(EmbeddedClusterSpec.MASTER_LABEL)));
      }
    } catch (YarnException e) {
      throw new IOException("Cannot resize the NodeManagers: " + e.getMessage(), e);
    }
  }

  private NodeId masterNodeId() {
    return master.getNMContext().getNodeId();
  }

  /** The NodeId of the master's NodeManager, or null when the spec has none. */
  public NodeId masterNodeManager() {
    requireStarted();
    return spec.hasMasterNodeManager() ? masterNodeId() : null;
  }

  /**
   * Waits until every NodeManager has stopped {@code applicationIds} and, with the energy
   * collector, until each node that ran one of them has written and closed its history file
   * (a collector writes it two sample intervals after its NodeManager stops the application).
   * A report read right after a job ends would otherwise miss the last nodes' files and show no
   * application joules.
   *
   * @return false when that had not happened after {@code limit}
   */
  public boolean awaitEnergyHistory(Collection<String> applicationIds, Duration limit)
      throws InterruptedException, IOException {
    requireStarted();
    List<ApplicationId> ids = applicationIds.stream().map(ApplicationId::fromString).toList();
    return new EnergyHistoryWaits(nodeManagers(), dfs.getFileSystem())
        .applicationsWritten(ids, spec.energyCollector(), limit);
  }

  /**
   * Waits until every NodeManager's own energy history (its node segments) reaches {@code
   * untilMillis}, so a report of a job that finished then finds every node's energy over the
   * job's span (collectors write a segment every {@code fawn.energy.node-history.roll-ms}).
   *
   * @return false when that had not happened after {@code limit}
   */
  public boolean awaitNodeHistories(long untilMillis, Duration limit)
      throws InterruptedException, IOException {
    requireStarted();
    return !spec.energyCollector()
        || new EnergyHistoryWaits(nodeManagers(), dfs.getFileSystem()).nodesReach(untilMillis,
            limit);
  }

  /** Every NodeManager: the master's first when the spec has one, then the slaves. */
  private List<NodeManager> nodeManagers() {
    List<NodeManager> all = new ArrayList<>();
    if (master != null) {
      all.add(master);
    }
    for (int i = 0; i < spec.nodeManagers(); i++) {
      all.add(yarn.getNodeManager(i));
    }
    return all;
  }

  /** The running ResourceManager, for tests that inspect the scheduler. */
  public ResourceManager resourceManager() {
    requireStarted();
    return yarn.getResourceManager();
  }

  /**
   * Writes the client configuration a separate JVM (hadoop jar, ./fawn) submits to us with;
   * see {@link ClientConfFiles}.
   */
  private void writeClientConf() throws IOException {
    ClientConfFiles.write(clientConf, spec.overrides().keySet(),
        System.getProperty("java.class.path"), clientConfDir());
  }

  /** A directory holding this cluster's client configuration (a HADOOP_CONF_DIR). */
  public Path clientConfDir() {
    return spec.baseDir().resolve("client-conf");
  }

  /** A copy of the configuration to submit jobs and reach HDFS with. */
  public Configuration clientConf() {
    requireStarted();
    return new Configuration(clientConf);
  }

  public FileSystem fileSystem() throws IOException {
    requireStarted();
    return dfs.getFileSystem();
  }

  public EmbeddedClusterSpec spec() {
    return spec;
  }

  /** Total vcores the slave NodeManagers offer (a master NodeManager runs only AMs). */
  public int totalVcores() {
    return spec.nodeManagers() * spec.nodeVcores();
  }

  /**
   * The web UIs of the embedded cluster: the ResourceManager's applications page, each
   * NodeManager's page, the JobHistory server's jobs page, the NameNode's page. (All render:
   * see {@link WebAppFilters} for what makes several YARN web apps work in one JVM.)
   */
  public Map<String, String> webAddresses() {
    requireStarted();
    Map<String, String> addresses = new java.util.LinkedHashMap<>();
    addresses.put("ResourceManager", "http://"
        + yarn.getConfig().get(YarnConfiguration.RM_WEBAPP_ADDRESS) + "/cluster/apps");
    // The NMs' own configs say port 0 (bind any); the RM knows the ports they bound.
    List<String> nms = new ArrayList<>();
    for (RMNode node : yarn.getResourceManager().getRMContext().getRMNodes().values()) {
      nms.add("http://" + node.getHttpAddress() + "/node");
    }
    nms.sort(null);
    for (int i = 0; i < nms.size(); i++) {
      addresses.put("NodeManager " + (i + 1), nms.get(i));
    }
    addresses.put("JobHistory", "http://"
        + yarn.getConfig().get("mapreduce.jobhistory.webapp.address") + "/jobhistory");
    addresses.put("NameNode", "http://localhost:" + dfs.getNameNode().getHttpAddress().getPort()
        + "/dfshealth.html");
    return addresses;
  }

  /**
   * The mini cluster stops its NodeManagers one after the other, each taking many seconds;
   * stopping them at once first makes the cluster's own stop find them already stopped.
   */
  private void stopNodeManagersTogether() {
    List<Thread> stoppers = new ArrayList<>();
    List<NodeManager> all = nodeManagers();
    for (int i = 0; i < all.size(); i++) {
      NodeManager nodeManager = all.get(i);
      Thread stopper = new Thread(() -> {
        try {
          nodeManager.stop();
        } catch (RuntimeException e) {
          LOG.warn("Stopping a NodeManager of cluster '{}' failed", spec.name(), e);
        }
      }, "stop-nm-" + i);
      stopper.start();
      stoppers.add(stopper);
    }
    for (Thread stopper : stoppers) {
      try {
        stopper.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return; // yarn.stop() still stops whatever is left
      }
    }
  }

  private void requireStarted() {
    if (clientConf == null) {
      throw new IllegalStateException("cluster '" + spec.name() + "' is not started");
    }
  }

  /**
   * Stops YARN, then HDFS, logging one line per service; each stop runs even if another fails.
   * Idempotent. Daemon threads' complaints about being interrupted by the stop are silenced
   * ({@link ShutdownNoise}).
   */
  @Override
  public void close() {
    try (ShutdownNoise quiet = ShutdownNoise.silence()) {
      if (yarn != null) {
        long started = System.nanoTime();
        stopNodeManagersTogether();
        LOG.info("Cluster '{}': {} NodeManagers stopped in {}", spec.name(),
            spec.totalNodeManagers(), seconds(started));
        started = System.nanoTime();
        try {
          yarn.stop();
          master = null;
          LOG.info("Cluster '{}': ResourceManager and JobHistory server stopped in {}",
              spec.name(), seconds(started));
        } catch (RuntimeException e) {
          LOG.warn("Stopping YARN of cluster '{}' failed", spec.name(), e);
        }
        yarn = null;
      }
      if (dfs != null) {
        long started = System.nanoTime();
        dfs.shutdown();
        dfs = null;
        LOG.info("Cluster '{}': HDFS (NameNode, {} DataNode(s)) stopped in {}", spec.name(),
            spec.dataNodes(), seconds(started));
      }
    }
    clientConf = null;
  }

  private static String seconds(long startedNanos) {
    return String.format("%.1f s", (System.nanoTime() - startedNanos) / 1e9);
  }
}
