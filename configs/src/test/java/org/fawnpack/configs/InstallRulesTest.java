package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules a real install needs (InstallRules): render a sound cluster, take out or break one
 * thing the way a hand-written or older directory lacks it, and expect the finding naming it.
 */
class InstallRulesTest {
  private static final String INVENTORY = "cluster: small\nhosts:\n"
      + "  - {host: boss, profile: brawny-master}\n"
      + "  - {host: \"e[1-3]\", profile: edison}\n";

  @TempDir
  Path dir;
  private RenderedCluster cluster;

  @BeforeEach
  void render() {
    cluster = ClusterRenderer.render(InventoryReader.parse("small.yaml", INVENTORY, null));
  }

  /** One NodeManager with Hadoop's own whitelist: it does not pass HADOOP_MAPRED_HOME. */
  private void hadoopsWhitelistOn(String host) {
    cluster.hosts().get(host).get("yarn-site.xml").set("yarn.nodemanager.env-whitelist",
        "JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,"
        + "CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,PATH,LANG,TZ", "test");
  }

  private List<Finding> validate() throws Exception {
    cluster.write(dir);
    return Validator.validate(ClusterConfs.read(dir));
  }

  private static Finding named(List<Finding> findings, String host, String key) {
    return findings.stream().filter(f -> f.host().equals(host) && f.key().equals(key))
        .findFirst().orElseThrow(() -> new AssertionError(host + " " + key + ": " + findings));
  }

  @Test
  void validate_mapEnvWithoutMapredHome_namesTheKey() throws Exception {
    hadoopsWhitelistOn("e1");
    cluster.hosts().get("e2").get("mapred-site.xml").set("mapreduce.map.env", "LANG=C", "test");
    List<Finding> findings = validate();
    Finding f = named(findings, "e2", "mapreduce.map.env");
    assertEquals(Finding.Severity.ERROR, f.severity());
    assertEquals("mapred-site.xml", f.file());
    assertEquals("LANG=C", f.value());
    assertTrue(f.message().contains("HADOOP_MAPRED_HOME"), f.message());
    assertEquals(1, findings.size(), findings.toString());
  }

  @Test
  void validate_clientWithoutAmEnv_namesTheClient() throws Exception {
    hadoopsWhitelistOn("boss");
    cluster.client().get("mapred-site.xml").set("yarn.app.mapreduce.am.env", "", "test");
    Finding f = named(validate(), RenderedCluster.CLIENT_DIR, "yarn.app.mapreduce.am.env");
    assertEquals(Finding.Severity.ERROR, f.severity());
  }

  @Test
  void validate_envMissingButEveryNodeManagerPassesIt_isFine() throws Exception {
    for (String host : cluster.hosts().keySet()) {
      cluster.hosts().get(host).get("mapred-site.xml").set("mapreduce.reduce.env", "", "test");
    }
    cluster.client().get("mapred-site.xml").set("mapreduce.reduce.env", "", "test");
    assertEquals(List.of(), validate()); // the rendered whitelist passes HADOOP_MAPRED_HOME
  }

  @Test
  void validate_recoveryWithAnEphemeralPort_isAnError() throws Exception {
    cluster.hosts().get("e1").get("yarn-site.xml").set("yarn.nodemanager.address",
        "${yarn.nodemanager.hostname}:0", "test");
    Finding f = named(validate(), "e1", "yarn.nodemanager.address");
    assertEquals(Finding.Severity.ERROR, f.severity());
    assertTrue(f.message().contains("ephemeral"), f.message());
  }

  @Test
  void validate_ephemeralCollectorPortUnderRecovery_isAWarning() throws Exception {
    cluster.hosts().get("e3").get("yarn-site.xml").set("fawn.energy.port", 0, "test");
    List<Finding> findings = validate();
    Finding f = named(findings, "e3", "fawn.energy.port");
    assertEquals(Finding.Severity.WARNING, f.severity());
    assertTrue(!Validator.hasErrors(findings), findings.toString());
  }

  @Test
  void validate_hadoopsTmpDefaults_areWarnings() throws Exception {
    // A directory written by hand: no hadoop.tmp.dir, no data directories.
    cluster.hosts().get("e1").get("core-site.xml").set("hadoop.tmp.dir",
        "/tmp/hadoop-${user.name}", "test");
    cluster.hosts().get("e1").get("hdfs-site.xml").set("dfs.datanode.data.dir",
        "file://${hadoop.tmp.dir}/dfs/data", "test");
    Finding f = named(validate(), "e1", "dfs.datanode.data.dir");
    assertEquals(Finding.Severity.WARNING, f.severity());
    assertTrue(f.message().contains("/tmp/hadoop-"), f.message());
  }

  @Test
  void validate_shufflePortInYarnSiteOnly_isAWarning() throws Exception {
    cluster.hosts().get("e2").get("yarn-site.xml").set("mapreduce.shuffle.port", 13570, "test");
    Finding f = named(validate(), "e2", "mapreduce.shuffle.port");
    assertEquals(Finding.Severity.WARNING, f.severity());
    assertTrue(f.message().contains("mapred-site.xml"), f.message());
  }
}
