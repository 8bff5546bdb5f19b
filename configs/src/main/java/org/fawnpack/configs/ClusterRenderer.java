package org.fawnpack.configs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.fawnpack.energy.EnergyKeys;

/**
 * Renders an inventory into one Hadoop configuration directory per host: core-site, hdfs-site,
 * yarn-site (with the fawn_energy collector and its meters), mapred-site, capacity-scheduler and
 * workers. Settings that must agree come from {@link ClusterPlan}; node sizes from each host's
 * own profile.
 */
public final class ClusterRenderer {
  /** The node label whose NodeManager runs ApplicationMasters. */
  public static final String MASTER_LABEL = "master";
  /** Same as {@link ConfigsKeys#PROFILE}. */
  public static final String PROFILE_KEY = ConfigsKeys.PROFILE.name();
  /** Same as {@link ConfigsKeys#ROLE}. */
  public static final String ROLE_KEY = ConfigsKeys.ROLE.name();
  /** Same as {@link ConfigsKeys#HOST_MEMORY_MB}. */
  public static final String HOST_MEMORY_KEY = ConfigsKeys.HOST_MEMORY_MB.name();
  static final String ENERGY_SERVICE = "org.fawnpack.energy.service.EnergyCollectorService";
  static final int NAMENODE_PORT = 8020;

  private ClusterRenderer() {}

  public static RenderedCluster render(Inventory inventory) {
    ClusterPlan plan = ClusterPlan.of(inventory);
    Map<String, Map<String, SiteFile>> hosts = new LinkedHashMap<>();
    for (Inventory.Host host : inventory.hosts()) {
      Map<String, SiteFile> files = new LinkedHashMap<>();
      files.put("core-site.xml", coreSite(plan));
      files.put("hdfs-site.xml", hdfsSite(plan));
      files.put("yarn-site.xml", yarnSite(plan, host));
      files.put("mapred-site.xml", mapredSite(plan));
      files.put("capacity-scheduler.xml", capacityScheduler());
      hosts.put(host.name(), files);
    }
    List<String> workers = inventory.slaves().stream().map(Inventory.Host::name).toList();
    return new RenderedCluster(inventory.cluster(), hosts, workers, ClusterReadme.text(plan));
  }

  private static String masterHost(ClusterPlan plan) {
    return plan.inventory().master().name();
  }

  private static SiteFile coreSite(ClusterPlan plan) {
    return new SiteFile("core-site.xml").set("fs.defaultFS", "hdfs://" + masterHost(plan) + ":"
        + NAMENODE_PORT, "the NameNode runs on the brawny master (seed 003 §5.2: an Edison"
        + " master was the bottleneck)");
  }

  private static SiteFile hdfsSite(ClusterPlan plan) {
    return new SiteFile("hdfs-site.xml")
        .set(Setting.BLOCK_SIZE_MB.hadoopKey(), Setting.BLOCK_SIZE_MB.hadoopValue(plan.blockSizeMb()),
            "cluster-wide: the smallest block size of the slave profiles ("
            + plan.blockSizeMb() + " MB); " + sourceOf(plan, Setting.BLOCK_SIZE_MB))
        .set(Setting.REPLICATION.hadoopKey(), plan.replication(), "cluster-wide: the largest"
            + " replication of the slave profiles, at most the " + plan.dataNodes()
            + " DataNodes; " + sourceOf(plan, Setting.REPLICATION));
  }

  /** The source of the first slave profile that asks for the largest or smallest value. */
  private static String sourceOf(ClusterPlan plan, Setting setting) {
    List<Profile> slaves = plan.inventory().slaves().stream().map(Inventory.Host::profile).toList();
    int wanted = setting == Setting.BLOCK_SIZE_MB
        ? slaves.stream().mapToInt(p -> p.get(setting)).min().orElseThrow()
        : slaves.stream().mapToInt(p -> p.get(setting)).max().orElseThrow();
    Profile from = slaves.stream().filter(p -> p.get(setting) == wanted).findFirst().orElseThrow();
    return from.name() + ": " + from.sourced(setting).source();
  }

  private static SiteFile yarnSite(ClusterPlan plan, Inventory.Host host) {
    Profile profile = host.profile();
    String master = masterHost(plan);
    SiteFile y = new SiteFile("yarn-site.xml");
    y.set("yarn.resourcemanager.hostname", master, "the ResourceManager runs on the brawny master");
    y.set(Setting.NODE_MEMORY_MB.hadoopKey(), profile.get(Setting.NODE_MEMORY_MB),
        profile.name() + ": " + profile.sourced(Setting.NODE_MEMORY_MB).source());
    y.set(Setting.VCORES.hadoopKey(), profile.get(Setting.VCORES),
        profile.name() + ": " + profile.sourced(Setting.VCORES).source());
    y.set("yarn.scheduler.minimum-allocation-mb", plan.schedulerMinMb(), "cluster-wide: the"
        + " greatest common divisor of the map, reduce and AM sizes, so no request is rounded up,"
        + " and not above the smallest NodeManager (the RM shuts down NodeManagers below it)");
    y.set("yarn.scheduler.maximum-allocation-mb", plan.schedulerMaxMb(),
        "cluster-wide: the largest NodeManager");
    y.set("yarn.scheduler.maximum-allocation-vcores", plan.schedulerMaxVcores(),
        "cluster-wide: the largest NodeManager");
    y.set("yarn.node-labels.enabled", true, "ApplicationMasters go to the NodeManager labelled "
        + MASTER_LABEL);
    y.set("yarn.node-labels.fs-store.root-dir", "hdfs://" + master + ":" + NAMENODE_PORT
        + "/yarn/node-labels", "the ResourceManager keeps the cluster's labels here");
    y.set("yarn.node-labels.configuration-type", "distributed",
        "each NodeManager reports its own label from its yarn-site.xml");
    if (host.isMaster()) {
      y.set("yarn.nodemanager.node-labels.provider", "config",
          "this NodeManager's label comes from the next key");
      y.set("yarn.nodemanager.node-labels.provider.configured-node-partition", MASTER_LABEL,
          "the master's NodeManager runs only ApplicationMasters");
    }
    energy(y, plan.inventory(), host);
    y.set(PROFILE_KEY, profile.name(), "the profile this host was rendered from");
    y.set(ROLE_KEY, profile.role().yamlName(), "the host's role, for fawn profile validate");
    y.set(HOST_MEMORY_KEY, profile.resources().memoryMb().intValue(),
        profile.name() + ": " + profile.resources().memoryMb().source());
    return y;
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

  private static SiteFile mapredSite(ClusterPlan plan) {
    String master = masterHost(plan);
    Profile job = plan.jobProfile();
    Profile am = plan.masterProfile();
    SiteFile m = new SiteFile("mapred-site.xml");
    m.set("mapreduce.framework.name", "yarn", "run jobs on the cluster");
    m.set("mapreduce.jobhistory.address", master + ":10020", "the JobHistory server on the master");
    m.set("mapreduce.jobhistory.webapp.address", master + ":19888",
        "the JobHistory server on the master");
    for (Setting s : List.of(Setting.MAP_MEMORY_MB, Setting.MAP_HEAP_MB, Setting.IO_SORT_MB,
        Setting.REDUCE_MEMORY_MB, Setting.REDUCE_HEAP_MB)) {
      m.set(s.hadoopKey(), s.hadoopValue(job.get(s)), "cluster-wide from " + job.name()
          + ", the slave with the least memory: " + job.sourced(s).source());
    }
    for (Setting s : List.of(Setting.AM_MEMORY_MB, Setting.AM_HEAP_MB)) {
      m.set(s.hadoopKey(), s.hadoopValue(am.get(s)), "AMs run on the master's NodeManager: "
          + am.name() + ": " + am.sourced(s).source());
    }
    m.set("mapreduce.job.am.node-label-expression", MASTER_LABEL,
        "ApplicationMasters run on the brawny master, tasks on the slaves");
    m.set("mapreduce.client.submit.file.replication", Math.min(10, plan.dataNodes()),
        "Hadoop's 10, at most the number of DataNodes (else the job files stay under-replicated)");
    return m;
  }

  private static SiteFile capacityScheduler() {
    String q = "yarn.scheduler.capacity.root";
    return new SiteFile("capacity-scheduler.xml")
        .set(q + ".queues", "default", "one queue")
        .set(q + ".default.capacity", 100, "one queue")
        .set(q + ".default.maximum-capacity", 100, "one queue")
        .set(q + ".accessible-node-labels", MASTER_LABEL, "the master's partition")
        .set(q + ".accessible-node-labels." + MASTER_LABEL + ".capacity", 100,
            "all of the master's partition")
        .set(q + ".default.accessible-node-labels", MASTER_LABEL,
            "jobs of the default queue may run AMs on the master")
        .set(q + ".default.accessible-node-labels." + MASTER_LABEL + ".capacity", 100,
            "all of the master's partition")
        .set("yarn.scheduler.capacity.maximum-am-resource-percent", 1.0, "the master's partition"
            + " runs only AMs; Hadoop's 0.1 would allow one or two AMs at a time")
        .set("yarn.scheduler.capacity.resource-calculator",
            "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator", "containers by"
            + " memory, as the paper ran (seed 003 §5.2.1: 4 maps of 150 MB on 2 Edison vcores)");
  }
}
