package org.fawnpack.configs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster: its hosts, each with a profile and the meters that measure it, the meters themselves
 * ({@code fawn.energy.meter.<name>.*} settings), where Hadoop and the data disks are on every
 * host, and the operator's own settings ({@code overrides}), which every render applies last.
 * Read by {@link InventoryReader}.
 */
public record Inventory(String cluster, String file, String energyJar, String confDir,
    String hadoopHome, String dataDirs, List<Host> hosts, Map<String, Map<String, String>> meters,
    Overrides overrides) {

  /**
   * One host of the cluster; its overrides win over the cluster's. {@code domain} is the
   * inventory's {@code domain:} (null: derived, see {@link #domains()}); {@code address} its IPv4
   * address for the rack table, or null.
   */
  public record Host(String name, Profile profile, List<String> meters, Overrides overrides,
      String domain, String address) {
    public Host(String name, Profile profile, List<String> meters) {
      this(name, profile, meters, Overrides.NONE);
    }

    public Host(String name, Profile profile, List<String> meters, Overrides overrides) {
      this(name, profile, meters, overrides, null, null);
    }

    public boolean isMaster() {
      return profile.role() == Role.MASTER;
    }
  }

  /** Properties per site file ({@code yarn-site.xml} to key to value), in inventory order. */
  public record Overrides(Map<String, Map<String, String>> files) {
    public static final Overrides NONE = new Overrides(Map.of());

    public Overrides {
      Map<String, Map<String, String>> copy = new LinkedHashMap<>();
      files.forEach((file, props) -> copy.put(file, new LinkedHashMap<>(props)));
      files = java.util.Collections.unmodifiableMap(copy);
    }

    public Map<String, String> of(String file) {
      return files.getOrDefault(file, Map.of());
    }
  }

  public static final String DEFAULT_ENERGY_JAR = "/opt/fawn/lib/fawn-energy-collector-aux.jar";
  public static final String DEFAULT_CONF_DIR = "/etc/hadoop/conf";
  /** Where Hadoop is installed on every host: tasks and AMs get it as HADOOP_MAPRED_HOME. */
  public static final String DEFAULT_HADOOP_HOME = "/opt/hadoop";
  /** One directory per data disk: {@code {disk}} is 1, 2, ...; {@code {host}} the host's name. */
  public static final String DEFAULT_DATA_DIRS = "/data/{disk}/hadoop";

  public Inventory {
    hosts = List.copyOf(hosts);
    meters = Map.copyOf(meters);
  }

  /** An inventory with the default install and data paths and no overrides. */
  public Inventory(String cluster, String file, String energyJar, String confDir, List<Host> hosts,
      Map<String, Map<String, String>> meters) {
    this(cluster, file, energyJar, confDir, DEFAULT_HADOOP_HOME, DEFAULT_DATA_DIRS, hosts, meters,
        Overrides.NONE);
  }

  public Host master() {
    return hosts.stream().filter(Host::isMaster).findFirst().orElseThrow();
  }

  public List<Host> slaves() {
    return hosts.stream().filter(h -> !h.isMaster()).toList();
  }

  /** The hosts a meter feeds, in inventory order. */
  public List<String> hostsOf(String meter) {
    return hosts.stream().filter(h -> h.meters().contains(meter)).map(Host::name).toList();
  }

  /**
   * Every host's failure domain (an HDFS rack path), in inventory order: its {@code domain:}, else
   * the shared supply it is on, else /default-rack ({@link FailureDomains}).
   */
  public Map<String, String> domains() {
    return FailureDomains.of(this);
  }

  /** The data directories of a host: one per disk of its profile, from {@link #dataDirs}. */
  public List<String> dataDirsOf(Host host) {
    int disks = host.profile().resources().disks().intValue();
    return java.util.stream.IntStream.rangeClosed(1, disks)
        .mapToObj(d -> dataDirs.replace("{disk}", Integer.toString(d))
            .replace("{host}", host.name()))
        .toList();
  }
}
