package org.fawnpack.configs;

import java.util.List;
import java.util.Map;

/**
 * A cluster: its hosts, each with a profile and the meters that measure it, and the meters
 * themselves ({@code fawn.energy.meter.<name>.*} settings). Read by {@link InventoryReader}.
 */
public record Inventory(String cluster, String file, String energyJar, String confDir,
    List<Host> hosts, Map<String, Map<String, String>> meters) {

  /** One host of the cluster. */
  public record Host(String name, Profile profile, List<String> meters) {
    public boolean isMaster() {
      return profile.role() == Role.MASTER;
    }
  }

  public static final String DEFAULT_ENERGY_JAR = "/opt/fawn/lib/fawn-energy-collector-aux.jar";
  public static final String DEFAULT_CONF_DIR = "/etc/hadoop/conf";

  public Inventory {
    hosts = List.copyOf(hosts);
    meters = Map.copyOf(meters);
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
}
