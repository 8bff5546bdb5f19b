package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.energy.EnergyKeys;

/**
 * Checks a cluster's configuration files for settings that cannot work or waste the nodes.
 * Each rule names the host, file, key and value it objects to:
 *
 * <ul>
 * <li>a task or AM heap ({@code -Xmx}) that leaves its container less than what a Java 17 JVM
 *     holds besides its heap ({@link JvmMemory});</li>
 * <li>{@code mapreduce.task.io.sort.mb} at or above the map heap;</li>
 * <li>a map or reduce container larger than a slave's NodeManager memory, or larger than
 *     {@code yarn.scheduler.maximum-allocation-mb};</li>
 * <li>{@code yarn.scheduler.minimum-allocation-mb} (or {@code -vcores}) above a NodeManager's
 *     memory (or vcores): the ResourceManager shuts that NodeManager down;</li>
 * <li>an ApplicationMaster larger than the master NodeManager's memory, or than
 *     {@code yarn.scheduler.maximum-allocation-mb};</li>
 * <li>a NodeManager promised more memory than its host has;</li>
 * <li>{@code dfs.blocksize} below {@code dfs.namenode.fs-limits.min-block-size} or not a
 *     multiple of {@code dfs.bytes-per-checksum} (the NameNode refuses such files);</li>
 * <li>{@code dfs.replication} above the number of DataNodes;</li>
 * <li>what a real install needs ({@link InstallRules}): HADOOP_MAPRED_HOME in MapReduce's
 *     containers, fixed ports under NodeManager recovery, data directories off /tmp;</li>
 * <li>rack awareness ({@link TopologyRules}): the rack table core-site.xml names must be there
 *     and list every host; replicas all in one failure domain (warning);</li>
 * <li>warnings: vcores a slave cannot use because its memory holds fewer maps, or more than two
 *     maps per vcore; a host with no energy meter.</li>
 * </ul>
 */
public final class Validator {
  static final String CORE = "core-site.xml";
  static final String HDFS = "hdfs-site.xml";
  static final String YARN = "yarn-site.xml";
  static final String MAPRED = "mapred-site.xml";
  /** hdfs-default.xml of Hadoop 3.5.0, for when the hadoop-hdfs jar is not on the classpath. */
  static final long DEFAULT_MIN_BLOCK_SIZE = 1024 * 1024;
  static final int DEFAULT_BYTES_PER_CHECKSUM = 512;
  private static final List<String> TASK_MEMORY_KEYS = List.of("mapreduce.map.memory.mb",
      "mapreduce.reduce.memory.mb");
  private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([kKmMgG]?)(?:\\s|$)");

  private final ClusterConfs confs;
  private final List<Finding> findings = new ArrayList<>();

  private Validator(ClusterConfs confs) {
    this.confs = confs;
  }

  public static List<Finding> validate(ClusterConfs confs) {
    Validator v = new Validator(confs);
    v.run();
    return List.copyOf(v.findings);
  }

  public static boolean hasErrors(List<Finding> findings) {
    return findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR);
  }

  private void run() {
    String master = master();
    for (String host : confs.hostNames()) {
      heaps(host);
      sortBuffer(host);
      nodeMemory(host);
      meters(host);
    }
    if (master == null) {
      String first = confs.hostNames().get(0);
      String role = ConfigsKeys.ROLE.name();
      error(first, YARN, role, confs.conf(first, YARN).getTrimmed(role),
          "no host is the master (" + role + "=master, or the node label"
          + " master): the ApplicationMasters have nowhere to run");
      return;
    }
    for (String host : confs.hostNames()) {
      schedulerMinimum(master, host);
    }
    for (String slave : confs.workers()) {
      if (!confs.hostNames().contains(slave)) {
        error(slave, "workers", "host", slave, "is listed in workers but has no config"
            + " directory in " + confs.where());
        continue;
      }
      containersFit(master, slave);
      idleVcores(slave);
    }
    schedulerMaximum(master);
    applicationMaster(master);
    blockSize(master);
    replication(master);
    if (confs.hasClient()) {
      heaps(RenderedCluster.CLIENT_DIR);
      sortBuffer(RenderedCluster.CLIENT_DIR);
    }
    findings.addAll(InstallRules.check(confs, master));
    findings.addAll(TopologyRules.check(confs, master));
  }

  private String master() {
    for (String host : confs.hostNames()) {
      Configuration yarn = confs.conf(host, YARN);
      if ("master".equals(yarn.getTrimmed(ConfigsKeys.ROLE.name()))
          || ClusterRenderer.MASTER_LABEL.equals(
              yarn.getTrimmed("yarn.nodemanager.node-labels.provider.configured-node-partition"))) {
        return host;
      }
    }
    return null;
  }

  /** Rule: the JVM's heap must leave room for its non-heap memory inside the container. */
  private void heaps(String host) {
    Configuration m = confs.conf(host, MAPRED);
    heap(host, m, "mapreduce.map.java.opts", "mapreduce.map.memory.mb",
        JvmMemory.TASK_NON_HEAP_MB);
    heap(host, m, "mapreduce.reduce.java.opts", "mapreduce.reduce.memory.mb",
        JvmMemory.TASK_NON_HEAP_MB);
    heap(host, m, "yarn.app.mapreduce.am.command-opts", "yarn.app.mapreduce.am.resource.mb",
        JvmMemory.AM_NON_HEAP_MB);
  }

  private void heap(String host, Configuration m, String optsKey, String memoryKey,
      int nonHeapMb) {
    long heap = heapMb(m.get(optsKey));
    int container = m.getInt(memoryKey, -1);
    if (heap > 0 && container > 0 && heap + nonHeapMb > container) {
      error(host, MAPRED, optsKey, m.get(optsKey), "heap " + heap + " MB + the " + nonHeapMb
          + " MB a Java 17 JVM holds besides it (measured, docs/profiles.md) > container "
          + container + " MB (" + memoryKey + "): the NodeManager's physical-memory check kills"
          + " it; at most -Xmx" + Math.max(0, container - nonHeapMb) + "m, or a container of "
          + (heap + nonHeapMb) + " MB");
    }
  }

  /** Rule: the map-side sort buffer lives in the heap. */
  private void sortBuffer(String host) {
    Configuration m = confs.conf(host, MAPRED);
    int sort = m.getInt("mapreduce.task.io.sort.mb", 100);
    long heap = heapMb(m.get("mapreduce.map.java.opts"));
    if (heap > 0 && sort >= heap) {
      error(host, MAPRED, "mapreduce.task.io.sort.mb", Integer.toString(sort), "sort buffer "
          + sort + " MB >= map heap " + heap + " MB (mapreduce.map.java.opts): maps fail with"
          + " OutOfMemoryError; keep it near 0.5 x heap");
    }
  }

  /** Rule: a NodeManager cannot offer more memory than its host has. */
  private void nodeMemory(String host) {
    Configuration y = confs.conf(host, YARN);
    int physical = y.getInt(ConfigsKeys.HOST_MEMORY_MB.name(), -1);
    int node = y.getInt("yarn.nodemanager.resource.memory-mb", -1);
    if (physical > 0 && node > physical) {
      error(host, YARN, "yarn.nodemanager.resource.memory-mb", Integer.toString(node),
          "is more than the host's " + physical + " MB (" + ConfigsKeys.HOST_MEMORY_MB.name()
          + "): containers would swap or be killed by the kernel");
    }
  }

  /**
   * Rule: the ResourceManager shuts down a NodeManager smaller than the minimum allocation in
   * memory or in vcores (ResourceTrackerService checks both at registration).
   */
  private void schedulerMinimum(String master, String host) {
    Configuration rm = confs.conf(master, YARN);
    Configuration nm = confs.conf(host, YARN);
    for (String[] keys : new String[][] {
        {"yarn.scheduler.minimum-allocation-mb", "yarn.nodemanager.resource.memory-mb"},
        {"yarn.scheduler.minimum-allocation-vcores", "yarn.nodemanager.resource.cpu-vcores"}}) {
      int min = rm.getInt(keys[0], keys[0].endsWith("mb") ? 1024 : 1);
      int node = nm.getInt(keys[1], -1);
      if (node > 0 && min > node) {
        error(host, YARN, keys[1], Integer.toString(node), "is below " + keys[0] + "=" + min
            + " (" + master + "'s " + YARN + "): the ResourceManager shuts this NodeManager"
            + " down at registration");
      }
    }
  }

  /** Rule: every task container must fit each slave. */
  private void containersFit(String master, String slave) {
    Configuration m = confs.conf(master, MAPRED);
    int node = confs.conf(slave, YARN).getInt("yarn.nodemanager.resource.memory-mb", -1);
    for (String key : TASK_MEMORY_KEYS) {
      int container = m.getInt(key, -1);
      if (container > 0 && node > 0 && container > node) {
        error(slave, MAPRED, key, Integer.toString(container), "container " + container
            + " MB > this slave's NodeManager memory " + node
            + " MB (yarn.nodemanager.resource.memory-mb): no task of that kind can run here");
      }
    }
  }

  /** Rule: the ResourceManager rejects a request above its maximum allocation. */
  private void schedulerMaximum(String master) {
    Configuration m = confs.conf(master, MAPRED);
    int max = confs.conf(master, YARN).getInt("yarn.scheduler.maximum-allocation-mb", 8192);
    for (String key : TASK_MEMORY_KEYS) {
      int container = m.getInt(key, -1);
      if (container > max) {
        error(master, MAPRED, key, Integer.toString(container), "container " + container
            + " MB > yarn.scheduler.maximum-allocation-mb=" + max + ": the ResourceManager"
            + " rejects the request");
      }
    }
  }

  /**
   * Rules: AMs run on the master's NodeManager, so each must fit its memory; and like any
   * container the AM must fit the scheduler's maximum.
   */
  private void applicationMaster(String master) {
    Configuration m = confs.conf(master, MAPRED);
    int am = m.getInt("yarn.app.mapreduce.am.resource.mb", 1536);
    int node = confs.conf(master, YARN).getInt("yarn.nodemanager.resource.memory-mb", -1);
    int max = confs.conf(master, YARN).getInt("yarn.scheduler.maximum-allocation-mb", 8192);
    if (node > 0 && am > node) {
      error(master, MAPRED, "yarn.app.mapreduce.am.resource.mb", Integer.toString(am),
          "ApplicationMaster " + am + " MB > the master NodeManager's free memory " + node
          + " MB (yarn.nodemanager.resource.memory-mb): jobs wait forever for their AM");
    } else if (am > max) {
      error(master, MAPRED, "yarn.app.mapreduce.am.resource.mb", Integer.toString(am),
          "ApplicationMaster " + am + " MB > yarn.scheduler.maximum-allocation-mb=" + max
          + ": the ResourceManager rejects the job");
    }
  }

  /** Rule: the NameNode refuses files whose block size is below its minimum. */
  private void blockSize(String master) {
    Configuration nn = confs.conf(master, HDFS);
    long min = nn.getLongBytes("dfs.namenode.fs-limits.min-block-size", DEFAULT_MIN_BLOCK_SIZE);
    int checksum = nn.getInt("dfs.bytes-per-checksum", DEFAULT_BYTES_PER_CHECKSUM);
    for (String host : confs.hostNames()) {
      Configuration h = confs.conf(host, HDFS);
      long block = h.getLongBytes("dfs.blocksize", 128L * 1024 * 1024);
      if (block < min) {
        error(host, HDFS, "dfs.blocksize", h.get("dfs.blocksize"), "block " + block
            + " bytes < dfs.namenode.fs-limits.min-block-size=" + min + " (" + master + "): the"
            + " NameNode refuses to create files");
      } else if (checksum > 0 && block % checksum != 0) {
        error(host, HDFS, "dfs.blocksize", h.get("dfs.blocksize"), "block " + block
            + " bytes is not a multiple of dfs.bytes-per-checksum=" + checksum
            + ": the NameNode refuses to create files");
      }
    }
  }

  /** Rule: each replica needs its own DataNode. */
  private void replication(String master) {
    int dataNodes = confs.workers().size();
    for (String host : confs.hostNames()) {
      Configuration h = confs.conf(host, HDFS);
      int replication = h.getInt("dfs.replication", 3);
      if (replication > dataNodes) {
        error(host, HDFS, "dfs.replication", Integer.toString(replication), "more replicas"
            + " than the " + dataNodes + " DataNodes in workers: every block stays"
            + " under-replicated");
      }
    }
  }

  /** Warning: vcores that the memory cannot fill with maps stay idle. */
  private void idleVcores(String slave) {
    Configuration y = confs.conf(slave, YARN);
    int node = y.getInt("yarn.nodemanager.resource.memory-mb", -1);
    int vcores = y.getInt("yarn.nodemanager.resource.cpu-vcores", -1);
    int map = confs.conf(slave, MAPRED).getInt("mapreduce.map.memory.mb", -1);
    if (node > 0 && vcores > 0 && map > 0 && node / map < vcores) {
      warn(slave, YARN, "yarn.nodemanager.resource.cpu-vcores", Integer.toString(vcores),
          (vcores - node / map) + " of " + vcores + " vcores idle: " + node + " MB holds only "
          + node / map + " maps of " + map + " MB (mapreduce.map.memory.mb)");
    } else if (node > 0 && vcores > 0 && map > 0 && node / map > 2 * vcores) {
      warn(slave, YARN, "yarn.nodemanager.resource.memory-mb", Integer.toString(node),
          node / map + " maps of " + map + " MB at once on " + vcores + " vcores, more than two"
          + " per vcore (seed 003 §5.2.1 ran at most two): the CPU is overloaded or the memory"
          + " wasted; give hosts this different a cluster of their own");
    }
  }

  /** Warning: a host with no meter reports no energy. */
  private void meters(String host) {
    Configuration y = confs.conf(host, YARN);
    if (y.getTrimmed("yarn.nodemanager.aux-services", "").contains("fawn_energy")
        && y.getTrimmedStrings(EnergyKeys.METERS.name()).length == 0) {
      warn(host, YARN, EnergyKeys.METERS.name(), "", "no meter: the energy collector records only"
          + " gaps on this host; add a meter in the inventory or power figures to its profile");
    }
  }

  /** The {@code -Xmx} of a JVM option string in MB, or -1 when it sets none. */
  static long heapMb(String opts) {
    if (opts == null) {
      return -1;
    }
    Matcher m = XMX.matcher(opts);
    long mb = -1;
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      mb = switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
        case "k" -> n / 1024;
        case "m" -> n;
        case "g" -> n * 1024;
        default -> n / (1024 * 1024);
      };
    }
    return mb;
  }

  private void error(String host, String file, String key, String value, String message) {
    findings.add(new Finding(Finding.Severity.ERROR, host, file, key,
        Objects.toString(value, ""), message));
  }

  private void warn(String host, String file, String key, String value, String message) {
    findings.add(new Finding(Finding.Severity.WARNING, host, file, key, value, message));
  }
}
