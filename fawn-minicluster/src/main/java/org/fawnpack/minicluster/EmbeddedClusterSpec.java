package org.fawnpack.minicluster;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.energy.EnergyKeys;

/**
 * The shape of an {@link EmbeddedCluster}: how many NodeManagers of what size, where its files
 * go, and the configuration the daemons and jobs start from.
 *
 * <p>Defaults are a small wimpy cluster that a 2-core machine can run: four 2-vcore, 1 GB
 * NodeManagers; 1-vcore containers sized so a node fits two maps; an ApplicationMaster of 384 MB.
 */
public final class EmbeddedClusterSpec {

  /** A JVM system property (surefire sets one per test fork), not a Hadoop setting. */
  public static final ConfigKey<String> BASE_DIR = ConfigKey.stringKey(
      "fawn.minicluster.base-dir", "target/minicluster", "Directory under which each test"
      + " class's cluster puts HDFS, temp and client config files; surefire sets one per fork."
      + " The mini YARN cluster itself works under `./target/<cluster name>` of the current"
      + " directory.");

  /** The keys of this module (one), for the configuration reference. */
  public static final List<ConfigKey<?>> KEYS = List.of(BASE_DIR);

  /** JVM flags for the cluster's task and AM JVMs. */
  public static final String SHORT_LIVED_JVM = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1";

  private final String name;
  private final Path baseDir;
  private final int nodeManagers;
  private final int nodeVcores;
  private final int nodeMemoryMb;
  private final int dataNodes;
  private final Map<String, String> overrides;
  private final boolean energyCollector;
  private final Map<String, String> energyProperties;
  private final Map<String, String> masterEnergyProperties;
  private final int masterMemoryMb;
  private final int masterVcores;

  private EmbeddedClusterSpec(Builder b) {
    this.name = b.name;
    this.baseDir = b.baseDir != null ? b.baseDir
        : Path.of(BASE_DIR.read(System::getProperty)).resolve(b.name);
    this.nodeManagers = b.nodeManagers;
    this.nodeVcores = b.nodeVcores;
    this.nodeMemoryMb = b.nodeMemoryMb;
    this.dataNodes = b.dataNodes;
    this.overrides = Map.copyOf(b.overrides);
    this.energyCollector = b.energyCollector;
    Map<String, String> energy = new LinkedHashMap<>(EDISON_MODEL_METER);
    // An embedded cluster lives minutes: its nodes' histories are written every 2 s, so a
    // report right after a job finds them (the default roll is a minute).
    energy.put(EnergyKeys.NODE_HISTORY_ROLL_MS.name(), "2000");
    energy.putAll(b.energyOverrides);
    this.energyProperties = Map.copyOf(energy);
    Map<String, String> master = new LinkedHashMap<>(energy);
    master.put(EnergyKeys.NODE_ROLE.name(), MASTER_LABEL);
    master.putAll(b.masterEnergyOverrides);
    this.masterEnergyProperties = Map.copyOf(master);
    this.masterMemoryMb = b.masterMemoryMb;
    this.masterVcores = b.masterVcores;
  }

  /** The node label of the NodeManager that runs the ApplicationMasters. */
  public static final String MASTER_LABEL = "master";

  /** Whether one extra NodeManager, labelled {@value #MASTER_LABEL}, runs all AMs. */
  public boolean hasMasterNodeManager() {
    return masterMemoryMb > 0;
  }

  public int masterMemoryMb() {
    return masterMemoryMb;
  }

  public int masterVcores() {
    return masterVcores;
  }

  /** The slave NodeManagers plus the master's, if any. */
  public int totalNodeManagers() {
    return nodeManagers + (hasMasterNodeManager() ? 1 : 0);
  }

  /**
   * The energy collector's settings in every NodeManager unless told otherwise: the power model
   * of an Edison with its USB Ethernet adaptor (seed 003, Table 3: 1.40 W idle, 1.68 W busy),
   * driven by this NodeManager's containers' CPU time (all NodeManagers share one host here, so
   * the host's /proc/stat would charge each for all). The figures are estimates, and say so.
   */
  public static final Map<String, String> EDISON_MODEL_METER = Map.of(
      EnergyKeys.METERS.name(), "edison-model",
      EnergyKeys.meterKey("edison-model", "type"), "model",
      EnergyKeys.meterKey("edison-model", "idle-watts"), "1.40",
      EnergyKeys.meterKey("edison-model", "busy-watts"), "1.68",
      EnergyKeys.meterKey("edison-model", "utilisation"), "containers",
      EnergyKeys.NODE_IDLE_WATTS.name(), "1.40");

  /** Whether every NodeManager runs the fawn_energy collector. */
  public boolean energyCollector() {
    return energyCollector;
  }

  /** The settings given with {@link Builder#set}, over the cluster's own. */
  public Map<String, String> overrides() {
    return overrides;
  }

  /** The slaves' collector properties (in their aux-services manifest). */
  public Map<String, String> energyProperties() {
    return energyProperties;
  }

  /**
   * The master NodeManager's collector settings: the slaves', its role {@value #MASTER_LABEL}
   * (so cluster joules leave it apart), and what {@link Builder#masterEnergySet} gave.
   */
  public Map<String, String> masterEnergyProperties() {
    return masterEnergyProperties;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String name() {
    return name;
  }

  public Path baseDir() {
    return baseDir.toAbsolutePath();
  }

  public int nodeManagers() {
    return nodeManagers;
  }

  public int nodeVcores() {
    return nodeVcores;
  }

  public int nodeMemoryMb() {
    return nodeMemoryMb;
  }

  public int dataNodes() {
    return dataNodes;
  }

  /** The configuration the daemons start with (a new one on each call); jobs inherit it through the client conf. */
  public Configuration clusterConf() {
    Configuration conf = new YarnConfiguration();
    conf.set("hadoop.tmp.dir", baseDir().resolve("tmp").toString());
    conf.setInt("dfs.replication", Math.min(dataNodes, 3));
    // Small nodes: the RM drops an NM smaller than the minimum allocation (default 1 GB).
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, nodeMemoryMb);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, nodeVcores);
    conf.setInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", nodeMemoryMb);
    conf.setInt(YarnConfiguration.NM_VCORES, nodeVcores);
    // Count vcores when placing containers, so a 2-vcore node runs two maps, not memory/size.
    conf.set("yarn.scheduler.capacity.resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
    // Every NM shares this machine's RAM; a JVM's virtual size says nothing about it.
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    // Containers sized for 1 GB nodes (Hadoop's 1.5 GB AM would not fit at all). Task JVMs
    // live seconds on a small heap: the serial collector and the C1 compiler alone cut the
    // CPU each start costs, which dominates when many JVMs start on few cores.
    conf.setInt("yarn.app.mapreduce.am.resource.mb", 384);
    conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx300m " + SHORT_LIVED_JVM);
    conf.setInt("mapreduce.map.memory.mb", 384);
    conf.set("mapreduce.map.java.opts", "-Xmx300m " + SHORT_LIVED_JVM);
    conf.setInt("mapreduce.reduce.memory.mb", 512);
    conf.set("mapreduce.reduce.java.opts", "-Xmx400m " + SHORT_LIVED_JVM);
    conf.setInt("mapreduce.task.io.sort.mb", 64);
    // Every daemon is on this machine: heartbeats and polls in tenths of a second, not whole
    // ones (a job's client polled for completion every 5 s, its AM asked for containers every
    // 1 s, and containers were handed out on 1 s NodeManager heartbeats), so short jobs do not
    // spend most of their time waiting for the next tick.
    conf.setInt("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 250);
    conf.setInt("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 250);
    conf.setInt("mapreduce.client.completion.pollinterval", 250);
    conf.setInt("mapreduce.client.progressmonitor.pollinterval", 250);
    // Two loops that wake every few milliseconds whether or not there is work, measured at a
    // sixth of the test JVM's CPU (2026-11-29): the CapacityScheduler's asynchronous pass
    // (5 ms) and the NameNode's marked-delete block scrubber (10 ms). A few tens of
    // milliseconds is still far below the heartbeats above.
    conf.setLong("yarn.scheduler.capacity.schedule-asynchronously.scheduling-interval-ms", 50);
    conf.setLong("dfs.namenode.block.deletion.unlock.interval.ms", 100);
    // Every daemon's /prom page on (off by default in Hadoop): see PrometheusSinks.
    conf.setBoolean(CommonConfigurationKeysPublic.HADOOP_PROMETHEUS_ENABLED, true);
    if (hasMasterNodeManager()) {
      masterLabel(conf);
    }
    overrides.forEach(conf::set);
    return conf;
  }

  /**
   * AMs on the master's NodeManager by node label (HADOOP-NOTES: labels in tests): the label
   * store lives under the base dir, the default queue may use the label, every job asks for it.
   */
  private void masterLabel(Configuration conf) {
    conf.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
    conf.set(YarnConfiguration.FS_NODE_LABELS_STORE_ROOT_DIR,
        baseDir().resolve("node-labels").toUri().toString());
    String root = "yarn.scheduler.capacity.root";
    conf.set(root + ".accessible-node-labels", MASTER_LABEL);
    conf.set(root + ".accessible-node-labels." + MASTER_LABEL + ".capacity", "100");
    conf.set(root + ".default.accessible-node-labels", MASTER_LABEL);
    conf.set(root + ".default.accessible-node-labels." + MASTER_LABEL + ".capacity", "100");
    // The master's partition runs only AMs: let them use all of it.
    conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    conf.set("mapreduce.job.am.node-label-expression", MASTER_LABEL);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB,
        Math.max(nodeMemoryMb, masterMemoryMb));
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES,
        Math.max(nodeVcores, masterVcores));
  }

  /** Builds a spec; every setter validates its argument. */
  public static final class Builder {
    private String name = "fawn";
    private Path baseDir;
    private int nodeManagers = 4;
    private int nodeVcores = 2;
    private int nodeMemoryMb = 1024;
    private int dataNodes = 1;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private boolean energyCollector = true;
    private final Map<String, String> energyOverrides = new LinkedHashMap<>();
    private final Map<String, String> masterEnergyOverrides = new LinkedHashMap<>();
    private int masterMemoryMb;
    private int masterVcores;

    private Builder() {}

    /**
     * One more NodeManager, of this size and labelled {@value #MASTER_LABEL}, on which every
     * job's ApplicationMaster runs (the brawny master of a wimpy cluster); the
     * {@link #nodeManagers} slaves then run only tasks.
     */
    public Builder masterNodeManager(int memoryMb, int vcores) {
      this.masterMemoryMb = requireRange("masterNodeManager memoryMb", memoryMb, 128, 1 << 20);
      this.masterVcores = requireRange("masterNodeManager vcores", vcores, 1, 256);
      return this;
    }

    /** Runs (default) or leaves out the fawn_energy collector in every NodeManager. */
    public Builder energyCollector(boolean on) {
      this.energyCollector = on;
      return this;
    }

    /** A setting of the energy collector (a {@code fawn.energy.*} key), over the Edison model. */
    public Builder energySet(String key, String value) {
      energyOverrides.put(energyKey(key), value);
      return this;
    }

    private static String energyKey(String key) {
      if (!key.startsWith("fawn.energy.")) {
        throw new IllegalArgumentException("energy collector keys start with fawn.energy.: " + key);
      }
      return key;
    }

    /** A setting of the master NodeManager's collector only, over the slaves' settings. */
    public Builder masterEnergySet(String key, String value) {
      masterEnergyOverrides.put(energyKey(key), value);
      return this;
    }

    /** Cluster name; also the YARN work directory {@code target/<name>} of the current dir. */
    public Builder name(String name) {
      if (name == null || !name.matches("[A-Za-z0-9_.-]+")) {
        throw new IllegalArgumentException("cluster name must be [A-Za-z0-9_.-]+: " + name);
      }
      this.name = name;
      return this;
    }

    /** Where HDFS, temp files and the client configuration go. */
    public Builder baseDir(Path baseDir) {
      this.baseDir = baseDir;
      return this;
    }

    public Builder nodeManagers(int count) {
      this.nodeManagers = requireRange("nodeManagers", count, 1, 64);
      return this;
    }

    public Builder nodeVcores(int vcores) {
      this.nodeVcores = requireRange("nodeVcores", vcores, 1, 256);
      return this;
    }

    public Builder nodeMemoryMb(int memoryMb) {
      this.nodeMemoryMb = requireRange("nodeMemoryMb", memoryMb, 512, 1 << 20);
      return this;
    }

    public Builder dataNodes(int count) {
      this.dataNodes = requireRange("dataNodes", count, 1, 16);
      return this;
    }

    /** A configuration value for the daemons and, through the client conf, every job. */
    public Builder set(String key, String value) {
      overrides.put(key, value);
      return this;
    }

    public EmbeddedClusterSpec spec() {
      return new EmbeddedClusterSpec(this);
    }

    /** The cluster, not started yet: call {@link EmbeddedCluster#start()}. */
    public EmbeddedCluster build() {
      return EmbeddedCluster.of(spec());
    }

    private static int requireRange(String what, int value, int min, int max) {
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            what + " must be in [" + min + ", " + max + "]: " + value);
      }
      return value;
    }
  }
}
