package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden-free: renders the paper's inventory, reads every file back with Hadoop's own
 * Configuration parser, and checks the result against the rules rather than a stored copy.
 */
class ClusterRendererTest {

  @TempDir
  static Path dir;
  private static Inventory inventory;

  @BeforeAll
  static void render() throws Exception {
    inventory = InventoryReader.read(Path.of("examples/edison-35.yaml"));
    ClusterRenderer.render(inventory).write(dir);
  }

  private static Configuration read(String host, String file) {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(dir.resolve(host).resolve(file).toUri()));
    return conf;
  }

  private static Configuration read(Path root, String host, String file) {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(root.resolve(host).resolve(file).toUri()));
    return conf;
  }

  private static long xmx(String opts) {
    String[] parts = opts.split("-Xmx");
    return Long.parseLong(parts[1].replaceAll("m.*", ""));
  }

  @Test
  void render_writesOneDirectoryPerHostAndTheWorkers() throws Exception {
    for (Inventory.Host h : inventory.hosts()) {
      for (String f : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml",
          "mapred-site.xml", "capacity-scheduler.xml", "workers")) {
        assertTrue(Files.isRegularFile(dir.resolve(h.name()).resolve(f)), h.name() + "/" + f);
      }
    }
    List<String> workers = Files.readAllLines(dir.resolve("workers"));
    assertEquals(37, workers.size());
    assertFalse(workers.contains("master"));
    String readme = Files.readString(dir.resolve("README.md"));
    for (String step : List.of("# Cluster edison-35", "for h in master $(cat workers)", "rsync",
        "/etc/hadoop/conf/", "/opt/fawn/lib/fawn-energy-collector-aux.jar",
        "yarn rmadmin -addToClusterNodeLabels \"master(exclusive=true)\"",
        "yarn --daemon start resourcemanager", "hdfs --daemon start datanode",
        "yarn --daemon start nodemanager", "- slaves: 37")) {
      assertTrue(readme.contains(step), step + " in\n" + readme);
    }
  }

  @Test
  void render_eachNodeManagerHasItsProfilesSize() {
    for (Inventory.Host h : inventory.hosts()) {
      Configuration y = read(h.name(), "yarn-site.xml");
      assertEquals(h.profile().get(Setting.NODE_MEMORY_MB),
          y.getInt("yarn.nodemanager.resource.memory-mb", -1), h.name());
      assertEquals(h.profile().get(Setting.VCORES),
          y.getInt("yarn.nodemanager.resource.cpu-vcores", -1), h.name());
      assertEquals("hdfs://master:8020", read(h.name(), "core-site.xml").get("fs.defaultFS"));
      assertEquals("master", y.get("yarn.resourcemanager.hostname"));
    }
  }

  @Test
  void render_schedulerMinimumDividesEveryRequestAndFitsEveryNode() {
    Configuration y = read("master", "yarn-site.xml");
    Configuration m = read("master", "mapred-site.xml");
    int min = y.getInt("yarn.scheduler.minimum-allocation-mb", -1);
    int max = y.getInt("yarn.scheduler.maximum-allocation-mb", -1);
    for (String key : List.of("mapreduce.map.memory.mb", "mapreduce.reduce.memory.mb",
        "yarn.app.mapreduce.am.resource.mb")) {
      int request = m.getInt(key, -1);
      assertEquals(0, request % min, key + "=" + request + " vs minimum " + min);
      assertTrue(request <= max, key);
    }
    for (Inventory.Host h : inventory.hosts()) {
      assertTrue(min <= read(h.name(), "yarn-site.xml")
          .getInt("yarn.nodemanager.resource.memory-mb", -1), h.name());
    }
  }

  @Test
  void render_tasksFitTheSmallestSlaveAndHeapsFitTheirContainers() {
    int smallest = inventory.slaves().stream()
        .mapToInt(h -> h.profile().get(Setting.NODE_MEMORY_MB)).min().orElseThrow();
    for (Inventory.Host h : inventory.hosts()) {
      Configuration m = read(h.name(), "mapred-site.xml");
      int map = m.getInt("mapreduce.map.memory.mb", -1);
      int reduce = m.getInt("mapreduce.reduce.memory.mb", -1);
      assertTrue(map <= smallest && reduce <= smallest, h.name());
      assertTrue(xmx(m.get("mapreduce.map.java.opts")) < map, h.name());
      assertTrue(xmx(m.get("mapreduce.reduce.java.opts")) < reduce, h.name());
      assertTrue(m.getInt("mapreduce.task.io.sort.mb", -1)
          < xmx(m.get("mapreduce.map.java.opts")), h.name());
      assertEquals("master", m.get("mapreduce.job.am.node-label-expression"));
    }
  }

  @Test
  void render_onlyTheMastersNodeManagerCarriesTheLabel() {
    String key = "yarn.nodemanager.node-labels.provider.configured-node-partition";
    for (Inventory.Host h : inventory.hosts()) {
      assertEquals(h.isMaster() ? "master" : null, read(h.name(), "yarn-site.xml").get(key),
          h.name());
    }
    Configuration cs = read("master", "capacity-scheduler.xml");
    assertEquals("master", cs.get("yarn.scheduler.capacity.root.default.accessible-node-labels"));
    int am = read("master", "mapred-site.xml").getInt("yarn.app.mapreduce.am.resource.mb", -1);
    assertTrue(am <= read("master", "yarn-site.xml")
        .getInt("yarn.nodemanager.resource.memory-mb", -1));
  }

  @Test
  void render_blockSizeAndReplicationAgreeAcrossTheCluster() {
    // Seed 003 §5.2 for the Edison cluster: 16 MB blocks, replication 2.
    for (Inventory.Host h : inventory.hosts()) {
      Configuration hdfs = read(h.name(), "hdfs-site.xml");
      assertEquals(16L << 20, hdfs.getLongBytes("dfs.blocksize", -1), h.name());
      assertEquals(2, hdfs.getInt("dfs.replication", -1), h.name());
    }
  }

  /**
   * A mix of slave types: every cluster-wide value is checked against its rule, computed here
   * from the profiles themselves; every node-local value against the host's own profile.
   */
  @Test
  void render_mixedSlaves_followTheClusterWideRules() throws Exception {
    Path mixed = dir.resolve("mixed");
    Inventory inv = InventoryReader.parse("mixed.yaml", "cluster: mixed\nhosts:\n"
        + "  - {host: boss, profile: brawny-master}\n"
        + "  - {host: \"e[1-2]\", profile: edison}\n"
        + "  - {host: \"p[1-2]\", profile: rpi4-4g}\n", null);
    ClusterRenderer.render(inv).write(mixed);
    List<Profile> slaves = inv.slaves().stream().map(Inventory.Host::profile).toList();
    Profile smallest = slaves.stream().min(java.util.Comparator.comparingInt(
        p -> p.get(Setting.NODE_MEMORY_MB))).orElseThrow();
    Profile master = inv.master().profile();
    long block = slaves.stream().mapToLong(p -> p.get(Setting.BLOCK_SIZE_MB)).min()
        .orElseThrow() << 20;
    int replication = Math.min(slaves.stream().mapToInt(p -> p.get(Setting.REPLICATION)).max()
        .orElseThrow(), slaves.size());
    int smallestNode = inv.hosts().stream().mapToInt(h -> h.profile().get(Setting.NODE_MEMORY_MB))
        .min().orElseThrow();
    int largestNode = inv.hosts().stream().mapToInt(h -> h.profile().get(Setting.NODE_MEMORY_MB))
        .max().orElseThrow();
    assertEquals("edison", smallest.name());
    assertEquals(3, replication);   // rpi4-4g wants 3 and there are 4 DataNodes
    for (Inventory.Host h : inv.hosts()) {
      Configuration hdfs = read(mixed, h.name(), "hdfs-site.xml");
      assertEquals(block, hdfs.getLongBytes("dfs.blocksize", -1), h.name());
      assertEquals(replication, hdfs.getInt("dfs.replication", -1), h.name());
      Configuration y = read(mixed, h.name(), "yarn-site.xml");
      assertEquals(h.profile().get(Setting.NODE_MEMORY_MB),
          y.getInt("yarn.nodemanager.resource.memory-mb", -1), h.name());
      assertEquals(h.profile().get(Setting.VCORES),
          y.getInt("yarn.nodemanager.resource.cpu-vcores", -1), h.name());
      int min = y.getInt("yarn.scheduler.minimum-allocation-mb", -1);
      assertTrue(min > 0 && min <= smallestNode, h.name() + ": minimum " + min);
      assertEquals(largestNode, y.getInt("yarn.scheduler.maximum-allocation-mb", -1), h.name());
      Configuration m = read(mixed, h.name(), "mapred-site.xml");
      assertEquals(smallest.get(Setting.MAP_MEMORY_MB), m.getInt("mapreduce.map.memory.mb", -1));
      assertEquals(smallest.get(Setting.REDUCE_MEMORY_MB),
          m.getInt("mapreduce.reduce.memory.mb", -1));
      assertEquals(smallest.get(Setting.IO_SORT_MB), m.getInt("mapreduce.task.io.sort.mb", -1));
      assertEquals(master.get(Setting.AM_MEMORY_MB),
          m.getInt("yarn.app.mapreduce.am.resource.mb", -1));
      assertEquals(master.get(Setting.AM_HEAP_MB), xmx(m.get("yarn.app.mapreduce.am.command-opts")));
      for (String key : List.of("mapreduce.map.memory.mb", "mapreduce.reduce.memory.mb",
          "yarn.app.mapreduce.am.resource.mb")) {
        assertEquals(0, m.getInt(key, -1) % min, key + " is not a multiple of " + min);
      }
    }
  }

  @Test
  void render_fewerDataNodesThanWanted_capsReplication() throws Exception {
    Path small = dir.resolve("two-pis");
    Inventory inv = InventoryReader.parse("two.yaml", "cluster: two\nhosts:\n"
        + "  - {host: boss, profile: brawny-master}\n"
        + "  - {host: \"p[1-2]\", profile: rpi4-4g}\n", null);
    ClusterRenderer.render(inv).write(small);
    assertTrue(ProfileReader.builtIn("rpi4-4g").get(Setting.REPLICATION) > 2);
    for (Inventory.Host h : inv.hosts()) {
      assertEquals(2, read(small, h.name(), "hdfs-site.xml").getInt("dfs.replication", -1));
      assertEquals(2, read(small, h.name(), "mapred-site.xml")
          .getInt("mapreduce.client.submit.file.replication", -1));
    }
  }

  @Test
  void render_energyCollectorUsesTheInventorysMetersWithSharedHosts() {
    Configuration e = read("edison-09", "yarn-site.xml");
    assertTrue(Arrays.asList(e.getTrimmedStrings("yarn.nodemanager.aux-services"))
        .contains("fawn_energy"));
    assertEquals("org.fawnpack.energy.service.EnergyCollectorService",
        e.get("yarn.nodemanager.aux-services.fawn_energy.class"));
    assertEquals("box2", e.get("fawn.energy.meters"));
    assertEquals("scpi", e.get("fawn.energy.meter.box2.type"));
    List<String> fed = Arrays.asList(e.getTrimmedStrings("fawn.energy.meter.box2.hosts"));
    assertEquals(7, fed.size());
    assertTrue(fed.contains("edison-09"));
    assertEquals(1.40, e.getDouble("fawn.energy.node.idle-watts", -1), 1e-9);
    Configuration dell = read("dell-01", "yarn-site.xml");
    assertEquals("snmp-pdu", dell.get("fawn.energy.meter.pdu-dell-01.type"));
    assertEquals(null, dell.get("fawn.energy.meter.pdu-dell-01.hosts"));
  }

  @Test
  void render_hostWithoutMeter_getsItsProfilesPowerModel() throws Exception {
    Path arm = dir.resolve("arm");
    ClusterRenderer.render(InventoryReader.read(Path.of("examples/arm-small.yaml"))).write(arm);
    Configuration y = new Configuration(false);
    y.addResource(new org.apache.hadoop.fs.Path(arm.resolve("pi-3/yarn-site.xml").toUri()));
    assertEquals("model", y.get("fawn.energy.meters"));
    assertEquals(2.3, y.getDouble("fawn.energy.meter.model.idle-watts", -1), 1e-9);
    assertEquals(5.4, y.getDouble("fawn.energy.meter.model.busy-watts", -1), 1e-9);
  }
}
