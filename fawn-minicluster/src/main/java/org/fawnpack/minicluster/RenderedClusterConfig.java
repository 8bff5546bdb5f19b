package org.fawnpack.minicluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.configs.ClusterRenderer;
import org.fawnpack.energy.EnergyKeys;

/**
 * Applies a directory written by {@code fawn profile render} to an embedded cluster: the slave
 * NodeManagers get the slaves' size, one more NodeManager the master's size and the
 * {@code master} label, and the cluster-wide settings (scheduler allocation, capacity
 * scheduler, block size, replication, task and AM sizes) come from the master's files.
 *
 * <p>Left out: host addresses (the embedded cluster picks its own ports), data directories and
 * the containers' HADOOP_MAPRED_HOME (it puts its own classpath in the jobs), the node-label store
 * and provider (the embedded cluster labels the master's NodeManager through the RM), and the aux
 * services (the embedded cluster installs the energy collector through a manifest, the
 * slaves' and the master's power models taken from their renders).
 */
public final class RenderedClusterConfig {

  private static final Set<String> HOST_SPECIFIC = Set.of("fs.defaultFS",
      "yarn.resourcemanager.hostname", "mapreduce.framework.name", "mapreduce.jobhistory.address",
      "mapreduce.jobhistory.webapp.address", "mapreduce.client.submit.file.replication",
      // a real install's directories and environment: the embedded cluster has its own
      "dfs.namenode.name.dir", "dfs.datanode.data.dir", "dfs.namenode.http-address",
      "yarn.app.mapreduce.am.env", "mapreduce.map.env", "mapreduce.reduce.env");
  private static final List<String> SCHEDULER_KEYS = List.of(
      "yarn.scheduler.minimum-allocation-mb", "yarn.scheduler.maximum-allocation-mb",
      "yarn.scheduler.maximum-allocation-vcores");
  private static final List<String> HEAP_KEYS = List.of("mapreduce.map.java.opts",
      "mapreduce.reduce.java.opts", "yarn.app.mapreduce.am.command-opts");

  private RenderedClusterConfig() {}

  /** Sizes {@code builder}'s cluster from {@code dir}; returns the builder. */
  public static EmbeddedClusterSpec.Builder applyTo(EmbeddedClusterSpec.Builder builder, Path dir)
      throws IOException {
    List<String> workers = Files.readAllLines(dir.resolve("workers"), StandardCharsets.UTF_8)
        .stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    if (workers.isEmpty()) {
      throw new IllegalArgumentException(dir.resolve("workers") + " lists no slave");
    }
    String master = master(dir);
    Configuration masterYarn = read(dir, master, "yarn-site.xml");
    Set<String> slaveSizes = new HashSet<>();
    for (String slave : workers) {
      Configuration y = read(dir, slave, "yarn-site.xml");
      slaveSizes.add(y.get("yarn.nodemanager.resource.memory-mb") + " MB / "
          + y.get("yarn.nodemanager.resource.cpu-vcores") + " vcores");
    }
    if (slaveSizes.size() != 1) {
      throw new IllegalArgumentException("the embedded cluster sizes all slave NodeManagers"
          + " alike; " + dir + " has slaves of " + slaveSizes);
    }
    Configuration slaveYarn = read(dir, workers.get(0), "yarn-site.xml");
    builder.nodeManagers(workers.size())
        .nodeMemoryMb(required(slaveYarn, "yarn.nodemanager.resource.memory-mb", workers.get(0)))
        .nodeVcores(required(slaveYarn, "yarn.nodemanager.resource.cpu-vcores", workers.get(0)))
        .masterNodeManager(required(masterYarn, "yarn.nodemanager.resource.memory-mb", master),
            required(masterYarn, "yarn.nodemanager.resource.cpu-vcores", master));
    for (String key : SCHEDULER_KEYS) {
      builder.set(key, Integer.toString(required(masterYarn, key, master)));
    }
    copy(builder, read(dir, master, "capacity-scheduler.xml"));
    copy(builder, read(dir, master, "hdfs-site.xml"));
    Configuration mapred = read(dir, master, "mapred-site.xml");
    copy(builder, mapred);
    // The harness's JVM flags for short-lived task JVMs (EmbeddedClusterSpec): the heap stays
    // the profile's; only the collector and compiler are chosen for a many-JVMs-on-2-cores box.
    for (String key : HEAP_KEYS) {
      String opts = mapred.get(key);
      if (opts != null) {
        StringBuilder all = new StringBuilder(opts);
        for (String flag : EmbeddedClusterSpec.SHORT_LIVED_JVM.split(" ")) {
          if (!List.of(opts.split("\\s+")).contains(flag)) { // the render may state the GC
            all.append(' ').append(flag);
          }
        }
        builder.set(key, all.toString());
      }
    }
    powerModel(slaveYarn, builder::energySet);
    powerModel(masterYarn, builder::masterEnergySet);
    return builder;
  }

  /**
   * The host's power model, when its render meters it by one ({@code fawn.energy.meters=model}:
   * no meter in the inventory), for its collectors: driven by each NodeManager's own
   * containers, since every NodeManager here shares one host's /proc/stat. A host with real
   * meters keeps the embedded cluster's default model: its meters are not on this machine.
   */
  private static void powerModel(Configuration yarn, java.util.function.BiConsumer<String,
      String> energySet) {
    String model = "model";
    if (!model.equals(yarn.getTrimmed(EnergyKeys.METERS.name()))) {
      return;
    }
    energySet.accept(EnergyKeys.METERS.name(), model);
    for (String option : List.of("type", "idle-watts", "busy-watts")) {
      String value = yarn.get(EnergyKeys.meterKey(model, option));
      if (value != null) {
        energySet.accept(EnergyKeys.meterKey(model, option), value);
      }
    }
    energySet.accept(EnergyKeys.meterKey(model, "utilisation"), "containers");
    String idle = yarn.get(EnergyKeys.NODE_IDLE_WATTS.name());
    if (idle != null) {
      energySet.accept(EnergyKeys.NODE_IDLE_WATTS.name(), idle);
    }
  }

  private static void copy(EmbeddedClusterSpec.Builder builder, Configuration conf) {
    for (Map.Entry<String, String> e : conf) {
      if (!HOST_SPECIFIC.contains(e.getKey())) {
        builder.set(e.getKey(), e.getValue());
      }
    }
  }

  private static String master(Path dir) throws IOException {
    try (var hosts = Files.list(dir)) {
      for (Path host : hosts.filter(Files::isDirectory).sorted().toList()) {
        Path yarn = host.resolve("yarn-site.xml");
        if (Files.isRegularFile(yarn) && "master".equals(read(dir, host.getFileName().toString(),
            "yarn-site.xml").get(ClusterRenderer.ROLE_KEY))) {
          return host.getFileName().toString();
        }
      }
    }
    throw new IllegalArgumentException(dir + " has no host with " + ClusterRenderer.ROLE_KEY
        + "=master in its yarn-site.xml");
  }

  private static Configuration read(Path dir, String host, String file) {
    Path path = dir.resolve(host).resolve(file);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("missing " + path);
    }
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(path.toUri()));
    return conf;
  }

  private static int required(Configuration conf, String key, String host) {
    int value = conf.getInt(key, -1);
    if (value <= 0) {
      throw new IllegalArgumentException(host + "/yarn-site.xml: " + key + " is missing or not"
          + " positive: " + conf.get(key));
    }
    return value;
  }
}
