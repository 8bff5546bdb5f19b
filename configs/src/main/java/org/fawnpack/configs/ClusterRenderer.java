package org.fawnpack.configs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders an inventory into one Hadoop configuration directory per host (core-site, hdfs-site,
 * yarn-site with the fawn_energy collector and its meters, mapred-site, capacity-scheduler, and
 * the rack table when the hosts span failure domains, {@link TopologyTable}) and a client
 * directory to submit jobs with. Settings that must agree come from {@link ClusterPlan};
 * node sizes, directories and addresses from each host's own profile and name; the inventory's
 * {@code overrides} are applied last, so the operator's own settings survive a re-render.
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
  /** The three keys that give MapReduce's containers their environment. */
  public static final List<String> ENV_KEYS = List.of("yarn.app.mapreduce.am.env",
      "mapreduce.map.env", "mapreduce.reduce.env");
  static final String ENERGY_SERVICE = YarnSite.ENERGY_SERVICE;
  static final int NAMENODE_PORT = HadoopPorts.NAMENODE;

  private ClusterRenderer() {}

  public static RenderedCluster render(Inventory inventory) {
    ClusterPlan plan = ClusterPlan.of(inventory);
    String table = TopologyTable.render(inventory);
    Map<String, Map<String, SiteFile>> hosts = new LinkedHashMap<>();
    for (Inventory.Host host : inventory.hosts()) {
      Map<String, SiteFile> files = new LinkedHashMap<>();
      files.put("core-site.xml", racks(table, inventory, coreSite(plan, host)));
      files.put("hdfs-site.xml", hdfsSite(plan, host));
      files.put("yarn-site.xml", YarnSite.render(plan, host));
      files.put("mapred-site.xml", mapredSite(plan));
      files.put("capacity-scheduler.xml", capacityScheduler());
      applyOverrides(files, inventory.overrides(), "the inventory's overrides");
      applyOverrides(files, host.overrides(), "the inventory's overrides for " + host.name());
      hosts.put(host.name(), files);
    }
    Map<String, SiteFile> client = new LinkedHashMap<>();
    // The client's too: a job's configuration (job.xml) is the client's, and the AM resolves
    // the racks of its splits' hosts with it, on the master, where the installed table is.
    client.put("core-site.xml", racks(table, inventory,
        fileSystem(plan, new SiteFile("core-site.xml"))));
    client.put("hdfs-site.xml", blocks(plan, new SiteFile("hdfs-site.xml")));
    client.put("yarn-site.xml", YarnSite.client(plan));
    client.put("mapred-site.xml", mapredSite(plan));
    applyOverrides(client, inventory.overrides(), "the inventory's overrides");
    List<String> workers = inventory.slaves().stream().map(Inventory.Host::name).toList();
    Map<String, String> plain = table == null ? Map.of() : Map.of(TopologyTable.FILE, table);
    return new RenderedCluster(inventory.cluster(), hosts, client, plain, workers,
        ClusterReadme.text(plan));
  }

  private static SiteFile racks(String table, Inventory inventory, SiteFile core) {
    return table == null ? core : TopologyTable.configure(core, inventory);
  }

  /** Writes the operator's properties over (or after) the rendered ones. */
  private static void applyOverrides(Map<String, SiteFile> files, Inventory.Overrides overrides,
      String where) {
    overrides.files().forEach((name, props) -> {
      SiteFile file = files.get(name);
      if (file != null) {
        props.forEach((k, v) -> file.set(k, v, "from " + where + ": kept across re-renders"));
      }
    });
  }

  private static String masterHost(ClusterPlan plan) {
    return plan.inventory().master().name();
  }

  private static SiteFile fileSystem(ClusterPlan plan, SiteFile core) {
    return core.set("fs.defaultFS", "hdfs://" + masterHost(plan) + ":" + HadoopPorts.NAMENODE,
        "the NameNode runs on the brawny master (seed 003 §5.2: an Edison master was the"
        + " bottleneck)");
  }

  private static SiteFile coreSite(ClusterPlan plan, Inventory.Host host) {
    SiteFile core = fileSystem(plan, new SiteFile("core-site.xml"));
    return core.set("hadoop.tmp.dir", plan.inventory().dataDirsOf(host).get(0) + "/tmp",
        "on the first data disk: Hadoop's default /tmp/hadoop-${user.name} is wiped on reboot");
  }

  private static SiteFile hdfsSite(ClusterPlan plan, Inventory.Host host) {
    SiteFile h = blocks(plan, new SiteFile("hdfs-site.xml"));
    List<String> disks = plan.inventory().dataDirsOf(host);
    if (host.isMaster()) {
      h.set("dfs.namenode.name.dir", YarnSite.fileUris(disks, "/dfs/name"), "the NameNode's metadata, a copy on each disk of "
          + host.profile().name() + " (Hadoop's default is under /tmp)");
      h.set("dfs.namenode.http-address", host.name() + ":" + HadoopPorts.NAMENODE_HTTP,
          "the NameNode's web UI on the master");
      h.set("dfs.namenode.safemode.min.datanodes", 1, "the NameNode leaves safe mode only once a"
          + " DataNode has registered, so 'hdfs dfsadmin -safemode wait' means HDFS takes writes"
          + " (the start order waits for it before the ResourceManager and JobHistory server)");
    } else {
      h.set("dfs.datanode.data.dir", YarnSite.fileUris(disks, "/dfs/data"), "one per disk of " + host.profile().name()
          + " (Hadoop's default is under /tmp)");
    }
    return h;
  }

  private static SiteFile blocks(ClusterPlan plan, SiteFile h) {
    return h
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

  private static SiteFile mapredSite(ClusterPlan plan) {
    String master = masterHost(plan);
    Profile job = plan.jobProfile();
    Profile am = plan.masterProfile();
    SiteFile m = new SiteFile("mapred-site.xml");
    m.set("mapreduce.framework.name", "yarn", "run jobs on the cluster");
    m.set("mapreduce.jobhistory.address", master + ":" + HadoopPorts.JOBHISTORY,
        "the JobHistory server on the master");
    m.set("mapreduce.jobhistory.webapp.address", master + ":" + HadoopPorts.JOBHISTORY_HTTP,
        "the JobHistory server on the master");
    String home = "HADOOP_MAPRED_HOME=" + plan.inventory().hadoopHome();
    for (String key : ENV_KEYS) {
      m.set(key, home, "MapReduce's classpath ($HADOOP_MAPRED_HOME/share/hadoop/mapreduce/*)"
          + " needs it in every container, or the AM fails with 'Could not find or load main"
          + " class MRAppMaster' (the inventory's hadoop-home)");
    }
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
