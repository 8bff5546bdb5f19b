package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a real install needs from a render, read back with Hadoop's own parser: containers'
 * HADOOP_MAPRED_HOME, data directories per disk, NodeManager recovery on fixed ports, the
 * client directory, the operator's overrides, and a start order with HDFS first.
 */
class RealInstallRenderTest {
  private static final String INVENTORY = "cluster: small\n"
      + "hadoop-home: /srv/hadoop-3.5.0\n"
      + "data-dirs: /disks/{disk}/h\n"
      + "overrides:\n"
      + "  yarn-site.xml: {yarn.nodemanager.delete.debug-delay-sec: 600}\n"
      + "  mapred-site.xml: {mapreduce.job.counters.max: 200}\n"
      + "hosts:\n"
      + "  - {host: boss, profile: brawny-master}\n"
      + "  - {host: \"e[1-2]\", profile: edison}\n"
      + "  - host: p1\n"
      + "    profile: rpi4-4g\n"
      + "    overrides: {yarn-site.xml: {yarn.nodemanager.delete.debug-delay-sec: 60}}\n";

  @TempDir
  static Path dir;

  @BeforeAll
  static void render() throws Exception {
    ClusterRenderer.render(InventoryReader.parse("small.yaml", INVENTORY, null)).write(dir);
  }

  private static Configuration read(String host, String file) {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(dir.resolve(host).resolve(file).toUri()));
    return conf;
  }

  @Test
  void render_everyJobSideFileGivesContainersHadoopMapredHome() {
    for (String host : List.of("boss", "e1", "p1", RenderedCluster.CLIENT_DIR)) {
      Configuration m = read(host, "mapred-site.xml");
      for (String key : ClusterRenderer.ENV_KEYS) {
        assertEquals("HADOOP_MAPRED_HOME=/srv/hadoop-3.5.0", m.get(key), host + " " + key);
      }
    }
    assertTrue(read("e1", "yarn-site.xml").getTrimmedStringCollection(
        "yarn.nodemanager.env-whitelist").contains("HADOOP_MAPRED_HOME"));
  }

  @Test
  void render_dataDirectoriesComeFromTheProfilesDisks() {
    assertEquals("file:///disks/1/h/dfs/name", read("boss", "hdfs-site.xml")
        .get("dfs.namenode.name.dir"));
    assertEquals("file:///disks/1/h/dfs/data", read("e1", "hdfs-site.xml")
        .get("dfs.datanode.data.dir"));
    assertEquals("/disks/1/h/yarn/local", read("e1", "yarn-site.xml")
        .get("yarn.nodemanager.local-dirs"));
    assertEquals("/disks/1/h/tmp", read("e1", "core-site.xml").get("hadoop.tmp.dir"));
    assertEquals("file:///disks/1/h/yarn/node-labels", read("e1", "yarn-site.xml")
        .get("yarn.node-labels.fs-store.root-dir"));
  }

  @Test
  void render_nodeManagerRecoveryOnFixedPorts() {
    Configuration y = read("e2", "yarn-site.xml");
    assertTrue(y.getBoolean("yarn.nodemanager.recovery.enabled", false));
    assertTrue(y.getBoolean("yarn.nodemanager.recovery.supervised", false));
    assertEquals("/disks/1/h/yarn/nm-recovery", y.get("yarn.nodemanager.recovery.dir"));
    assertEquals("e2:45454", y.get("yarn.nodemanager.address"));
    assertTrue(y.getInt("fawn.energy.port", 0) > 0);
    assertEquals("e2", y.get("fawn.energy.node.name"));
  }

  @Test
  void render_clientDirectoryHasTheClusterAndNoNodeManager() {
    assertEquals("hdfs://boss:8020", read(RenderedCluster.CLIENT_DIR, "core-site.xml")
        .get("fs.defaultFS"));
    Configuration y = read(RenderedCluster.CLIENT_DIR, "yarn-site.xml");
    assertEquals("boss", y.get("yarn.resourcemanager.hostname"));
    assertEquals(null, y.get("yarn.nodemanager.aux-services"));
    assertEquals("master", read(RenderedCluster.CLIENT_DIR, "mapred-site.xml")
        .get("mapreduce.job.am.node-label-expression"));
  }

  @Test
  void render_overridesWinAndTheHostsWinOverTheClusters() {
    assertEquals("600", read("e1", "yarn-site.xml").get("yarn.nodemanager.delete.debug-delay-sec"));
    assertEquals("60", read("p1", "yarn-site.xml").get("yarn.nodemanager.delete.debug-delay-sec"));
    assertEquals("200", read(RenderedCluster.CLIENT_DIR, "mapred-site.xml")
        .get("mapreduce.job.counters.max"));
  }

  @Test
  void render_readmeStartsHdfsBeforeYarnAndNamesTheFirstStartSteps() throws Exception {
    String readme = Files.readString(dir.resolve("README.md"));
    int format = readme.indexOf("hdfs namenode -format");
    int datanode = readme.indexOf("hdfs --daemon start datanode");
    int writable = readme.indexOf("hdfs dfsadmin -safemode wait");
    int rm = readme.indexOf("yarn --daemon start resourcemanager");
    int label = readme.indexOf("-addToClusterNodeLabels");
    int nodeManager = readme.indexOf("yarn --daemon start nodemanager");
    assertTrue(0 < format && format < datanode && datanode < writable && writable < rm
        && rm < label && label < nodeManager, readme);
    assertTrue(readme.contains("*first start* on `boss`: `hdfs namenode -format"), readme);
    assertTrue(readme.contains("overrides:"), readme);
  }

  @Test
  void validate_theRenderIsClean() {
    List<Finding> findings = Validator.validate(ClusterConfs.read(dir));
    assertTrue(findings.stream().noneMatch(f -> f.severity() == Finding.Severity.ERROR),
        findings.toString());
  }
}
