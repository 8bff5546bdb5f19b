package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.fawnpack.energy.EnergyKeys;

/**
 * One host's yarn-site.xml: the ResourceManager's address and the scheduler limits (every host
 * carries them), this host's NodeManager (size, address, directories, recovery, memory checks),
 * node labels, and the fawn_energy collector with the host's meters.
 */
final class YarnSite {
  static final String ENERGY_SERVICE = "org.fawnpack.energy.service.EnergyCollectorService";
  /** Hadoop 3.5.0's yarn.nodemanager.env-whitelist, and the variable MapReduce needs too. */
  static final String ENV_WHITELIST = "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,"
      + "HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ,"
      + "HADOOP_MAPRED_HOME";

  private YarnSite() {}

  static SiteFile render(ClusterPlan plan, Inventory.Host host) {
    Profile profile = host.profile();
    String master = plan.inventory().master().name();
    SiteFile y = new SiteFile("yarn-site.xml");
    y.set("yarn.resourcemanager.hostname", master, "the ResourceManager runs on the brawny master");
    y.set(Setting.NODE_MEMORY_MB.hadoopKey(), profile.get(Setting.NODE_MEMORY_MB),
        profile.name() + ": " + profile.sourced(Setting.NODE_MEMORY_MB).source());
    y.set(Setting.VCORES.hadoopKey(), profile.get(Setting.VCORES),
        profile.name() + ": " + profile.sourced(Setting.VCORES).source());
    scheduler(y, plan);
    nodeManager(y, plan.inventory(), host);
    labels(y, plan.inventory(), host);
    energy(y, plan.inventory(), host);
    y.set(ConfigsKeys.PROFILE.name(), profile.name(), "the profile this host was rendered from");
    y.set(ConfigsKeys.ROLE.name(), profile.role().yamlName(),
        "the host's role, for fawn profile validate");
    y.set(ConfigsKeys.HOST_MEMORY_MB.name(), profile.resources().memoryMb().intValue(),
        profile.name() + ": " + profile.resources().memoryMb().source());
    return y;
  }

  /** What a client needs to submit to the ResourceManager. */
  static SiteFile client(ClusterPlan plan) {
    SiteFile y = new SiteFile("yarn-site.xml");
    y.set("yarn.resourcemanager.hostname", plan.inventory().master().name(),
        "the ResourceManager runs on the brawny master");
    return y;
  }

  private static void scheduler(SiteFile y, ClusterPlan plan) {
    y.set("yarn.scheduler.minimum-allocation-mb", plan.schedulerMinMb(), "cluster-wide: the"
        + " greatest common divisor of the map, reduce and AM sizes, so no request is rounded up,"
        + " and not above the smallest NodeManager (the RM shuts down NodeManagers below it)");
    y.set("yarn.scheduler.maximum-allocation-mb", plan.schedulerMaxMb(),
        "cluster-wide: the largest NodeManager");
    y.set("yarn.scheduler.maximum-allocation-vcores", plan.schedulerMaxVcores(),
        "cluster-wide: the largest NodeManager");
  }

  private static void nodeManager(SiteFile y, Inventory inventory, Inventory.Host host) {
    List<String> disks = inventory.dataDirsOf(host);
    y.set("yarn.nodemanager.hostname", host.name(), "the NodeManager registers under the"
        + " inventory's name (the name in workers), and its ports bind to that address");
    y.set("yarn.nodemanager.address", "${yarn.nodemanager.hostname}:" + HadoopPorts.NODEMANAGER,
        "a fixed port (Hadoop's is ephemeral): with NodeManager recovery a restarted NodeManager"
        + " must come back at the address its containers and the ResourceManager know");
    y.set("yarn.nodemanager.local-dirs", join(disks, "/yarn/local"),
        "one per disk of " + host.profile().name() + " (Hadoop's default is under /tmp)");
    y.set("yarn.nodemanager.log-dirs", join(disks, "/yarn/logs"),
        "containers' logs, one per disk (Hadoop's default is under the daemon's log directory)");
    y.set("yarn.nodemanager.recovery.enabled", true, "a restarted NodeManager takes its running"
        + " containers back, and the shuffle its map outputs, so a restart loses no job");
    y.set("yarn.nodemanager.recovery.dir", disks.get(0) + "/yarn/nm-recovery",
        "the NodeManager's recovery state (and the energy collector's ledger), on the first disk");
    y.set("yarn.nodemanager.recovery.supervised", true, "the NodeManager is restarted by an"
        + " operator or a supervisor: it leaves its containers running when it stops");
    y.set("yarn.nodemanager.pmem-check-enabled", true, "Hadoop's default, stated: a container"
        + " whose processes' resident memory exceeds its size is killed, so task sizes must hold"
        + " their JVMs (docs/profiles.md, Java 17 heaps)");
    y.set("yarn.nodemanager.vmem-check-enabled", false, "a Java 17 JVM reserves far more address"
        + " space than it uses (a 1 GB class space, 240 MB code cache), so the virtual-memory"
        + " check would kill every small container; the physical check above is the one that"
        + " counts");
    y.set("yarn.nodemanager.env-whitelist", ENV_WHITELIST, "Hadoop's list plus"
        + " HADOOP_MAPRED_HOME, so containers also get the NodeManager's own (mapred-site.xml"
        + " sets it for MapReduce's containers too)");
  }

  private static void labels(SiteFile y, Inventory inventory, Inventory.Host host) {
    Inventory.Host master = inventory.master();
    y.set("yarn.node-labels.enabled", true, "ApplicationMasters go to the NodeManager labelled "
        + ClusterRenderer.MASTER_LABEL);
    y.set("yarn.node-labels.fs-store.root-dir", "file://" + inventory.dataDirsOf(master).get(0)
        + "/yarn/node-labels", "the ResourceManager keeps the cluster's labels on the master's"
        + " own disk, so it starts without HDFS");
    y.set("yarn.node-labels.configuration-type", "distributed",
        "each NodeManager reports its own label from its yarn-site.xml");
    if (host.isMaster()) {
      y.set("yarn.nodemanager.node-labels.provider", "config",
          "this NodeManager's label comes from the next key");
      y.set("yarn.nodemanager.node-labels.provider.configured-node-partition",
          ClusterRenderer.MASTER_LABEL, "the master's NodeManager runs only ApplicationMasters");
    }
  }

  private static void energy(SiteFile y, Inventory inventory, Inventory.Host host) {
    y.set("yarn.nodemanager.aux-services", "mapreduce_shuffle,fawn_energy",
        "the shuffle, and the energy collector (docs/energy.md)");
    y.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class",
        "org.apache.hadoop.mapred.ShuffleHandler", "MapReduce's shuffle");
    y.set("yarn.nodemanager.aux-services.fawn_energy.class", ENERGY_SERVICE,
        "the energy collector");
    y.set("yarn.nodemanager.aux-services.fawn_energy.classpath", inventory.energyJar(),
        "the collector's jar, loaded by its own class loader");
    y.set(EnergyKeys.PORT.name(), HadoopPorts.ENERGY_COLLECTOR, "a fixed loopback port: a task"
        + " that outlives a NodeManager restart still finds the collector where it was");
    y.set(EnergyKeys.NODE_NAME.name(), host.name(), "the history files are named after the"
        + " inventory's host");
    Profile profile = host.profile();
    Optional<Profile.Power> power = profile.power();
    List<String> meters = new ArrayList<>(host.meters());
    if (meters.isEmpty()) {
      if (power.isEmpty()) {
        // No meter and no measured power: the collector runs with no meter (every sample a
        // gap), which validate reports as a warning rather than inventing figures.
        y.set(EnergyKeys.METERS.name(), "", "no meter in the inventory and no power figures in "
            + profile.name() + ": unmetered");
        return;
      }
      meters.add("model");
      y.set(EnergyKeys.meterKey("model", "type"), "model",
          "no meter in the inventory: the profile's power model, an estimate");
      y.set(EnergyKeys.meterKey("model", "idle-watts"), power.get().idleWatts().value(),
          profile.name() + ": " + power.get().idleWatts().source());
      y.set(EnergyKeys.meterKey("model", "busy-watts"), power.get().busyWatts().value(),
          profile.name() + ": " + power.get().busyWatts().source());
    } else {
      for (String meter : meters) {
        inventory.meters().get(meter).forEach((k, v) -> y.set(EnergyKeys.METER_PREFIX + meter + "."
            + k, v, "inventory meter " + meter));
        List<String> fed = inventory.hostsOf(meter);
        if (fed.size() > 1) {
          y.set(EnergyKeys.meterKey(meter, "hosts"), String.join(",", fed), "the meter feeds "
              + fed.size() + " hosts; each books an equal share");
        }
      }
    }
    y.set(EnergyKeys.METERS.name(), String.join(",", meters), "this host's meters");
    power.ifPresent(p -> y.set(EnergyKeys.NODE_IDLE_WATTS.name(), p.idleWatts().value(),
        profile.name() + ": " + p.idleWatts().source()));
  }

  /** {@code dir + suffix} for each directory, comma-separated as Hadoop lists directories. */
  static String join(List<String> dirs, String suffix) {
    return String.join(",", dirs.stream().map(d -> d + suffix).toList());
  }

  /** The same as {@code file://} URIs, as HDFS wants its directories. */
  static String fileUris(List<String> dirs, String suffix) {
    return String.join(",", dirs.stream().map(d -> "file://" + d + suffix).toList());
  }
}
