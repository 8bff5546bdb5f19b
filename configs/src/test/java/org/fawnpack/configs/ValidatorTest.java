package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each rule: render a sound cluster, break one key in one host's file, write it, read the
 * directory back and expect exactly that finding, naming host, file, key and value.
 */
class ValidatorTest {

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

  private SiteFile file(String host, String name) {
    return cluster.hosts().get(host).get(name);
  }

  private List<Finding> validate() throws Exception {
    cluster.write(dir);
    return Validator.validate(ClusterConfs.read(dir));
  }

  private static Finding only(List<Finding> findings, Finding.Severity severity) {
    List<Finding> matching = findings.stream().filter(f -> f.severity() == severity).toList();
    assertEquals(1, matching.size(), findings.toString());
    return matching.get(0);
  }

  private static void assertNames(Finding f, String host, String file, String key, String value) {
    assertEquals(host, f.host(), f.toString());
    assertEquals(file, f.file(), f.toString());
    assertEquals(key, f.key(), f.toString());
    assertEquals(value, f.value(), f.toString());
    assertTrue(f.toString().contains(" " + host + " " + file + " " + key + "=" + value + ": "),
        f.toString());
  }

  private static Finding named(List<Finding> findings, String host, String key) {
    return findings.stream().filter(f -> f.host().equals(host) && f.key().equals(key))
        .findFirst().orElseThrow(() -> new AssertionError(host + " " + key + ": " + findings));
  }

  @Test
  void validate_renderedCluster_isClean() throws Exception {
    assertEquals(List.of(), validate());
  }

  @Test
  void validate_heapAtContainerSize_isAnError() throws Exception {
    file("e2", "mapred-site.xml").set("mapreduce.map.java.opts", "-Xmx150m", "test");
    assertNames(only(validate(), Finding.Severity.ERROR), "e2", "mapred-site.xml",
        "mapreduce.map.java.opts", "-Xmx150m");
  }

  @Test
  void validate_reduceHeapAboveContainer_isAnError() throws Exception {
    file("e1", "mapred-site.xml").set("mapreduce.reduce.java.opts", "-XX:+UseSerialGC -Xmx1g",
        "test");
    assertNames(only(validate(), Finding.Severity.ERROR), "e1", "mapred-site.xml",
        "mapreduce.reduce.java.opts", "-XX:+UseSerialGC -Xmx1g");
  }

  @Test
  void validate_sortBufferAtHeap_isAnError() throws Exception {
    file("e3", "mapred-site.xml").set("mapreduce.task.io.sort.mb", 140, "test");
    assertNames(only(validate(), Finding.Severity.ERROR), "e3", "mapred-site.xml",
        "mapreduce.task.io.sort.mb", "140");
  }

  @Test
  void validate_containerLargerThanASlave_namesThatSlave() throws Exception {
    // e2's NodeManager shrinks below the 300 MB reduce: only e2 cannot run reduces.
    file("e2", "yarn-site.xml").set("yarn.nodemanager.resource.memory-mb", 250, "test");
    Finding f = only(validate(), Finding.Severity.ERROR);
    assertNames(f, "e2", "mapred-site.xml", "mapreduce.reduce.memory.mb", "300");
    assertTrue(f.message().contains("250"), f.message());
  }

  @Test
  void validate_schedulerMinimumAboveANode_namesTheNode() throws Exception {
    for (String host : cluster.hosts().keySet()) {
      file(host, "yarn-site.xml").set("yarn.scheduler.minimum-allocation-mb", 1024, "test");
    }
    List<Finding> errors = validate().stream()
        .filter(f -> f.message().contains("minimum-allocation-mb=1024")).toList();
    assertEquals(3, errors.size(), errors.toString());
    assertNames(errors.get(0), "e1", "yarn-site.xml", "yarn.nodemanager.resource.memory-mb", "600");
  }

  @Test
  void validate_amLargerThanTheMastersFreeMemory_isAnError() throws Exception {
    for (String host : cluster.hosts().keySet()) {
      file(host, "mapred-site.xml").set("yarn.app.mapreduce.am.resource.mb", 5000, "test");
      file(host, "mapred-site.xml").set("yarn.app.mapreduce.am.command-opts", "-Xmx4000m", "t");
    }
    List<Finding> findings = validate();
    Finding f = findings.stream().filter(x -> x.message().contains("ApplicationMaster"))
        .findFirst().orElseThrow(() -> new AssertionError(findings.toString()));
    assertNames(f, "boss", "mapred-site.xml", "yarn.app.mapreduce.am.resource.mb", "5000");
  }

  @Test
  void validate_amHeapAtItsContainer_isAnError() throws Exception {
    file("boss", "mapred-site.xml").set("yarn.app.mapreduce.am.command-opts", "-Xmx500m", "test");
    assertNames(only(validate(), Finding.Severity.ERROR), "boss", "mapred-site.xml",
        "yarn.app.mapreduce.am.command-opts", "-Xmx500m");
  }

  @Test
  void validate_containersAboveTheSchedulerMaximum_areErrors() throws Exception {
    // 299 MB: maps (250) still fit; the 300 MB reduce and the 500 MB AM do not.
    file("boss", "yarn-site.xml").set("yarn.scheduler.maximum-allocation-mb", 299, "test");
    List<Finding> errors = validate();
    assertEquals(2, errors.size(), errors.toString());
    assertNames(named(errors, "boss", "mapreduce.reduce.memory.mb"), "boss", "mapred-site.xml",
        "mapreduce.reduce.memory.mb", "300");
    Finding am = named(errors, "boss", "yarn.app.mapreduce.am.resource.mb");
    assertNames(am, "boss", "mapred-site.xml", "yarn.app.mapreduce.am.resource.mb", "500");
    assertTrue(am.message().contains("maximum-allocation-mb=299"), am.message());
  }

  @Test
  void validate_schedulerMinimumVcoresAboveANode_namesTheNode() throws Exception {
    file("boss", "yarn-site.xml").set("yarn.scheduler.minimum-allocation-vcores", 4, "test");
    List<Finding> errors = validate();
    assertEquals(3, errors.size(), errors.toString());   // the three 2-vcore Edisons
    assertNames(named(errors, "e2", "yarn.nodemanager.resource.cpu-vcores"), "e2",
        "yarn-site.xml", "yarn.nodemanager.resource.cpu-vcores", "2");
  }

  @Test
  void validate_blockSizeNotAChecksumMultiple_isAnError() throws Exception {
    file("e2", "hdfs-site.xml").set("dfs.blocksize", 16_777_000, "test");
    Finding f = only(validate(), Finding.Severity.ERROR);
    assertNames(f, "e2", "hdfs-site.xml", "dfs.blocksize", "16777000");
    assertTrue(f.message().contains("dfs.bytes-per-checksum=512"), f.message());
  }

  @Test
  void validate_noMaster_isAnError() throws Exception {
    file("boss", "yarn-site.xml").set(ConfigsKeys.ROLE.name(), "slave", "test")
        .set("yarn.nodemanager.node-labels.provider.configured-node-partition", "", "test");
    assertNames(only(validate(), Finding.Severity.ERROR), "boss", "yarn-site.xml",
        ConfigsKeys.ROLE.name(), "slave");
  }

  @Test
  void validate_workerWithoutConfigDirectory_isAnError() throws Exception {
    cluster.write(dir);
    Files.writeString(dir.resolve("workers"), "e4\n", java.nio.file.StandardOpenOption.APPEND);
    List<Finding> findings = Validator.validate(ClusterConfs.read(dir));
    assertNames(only(findings, Finding.Severity.ERROR), "e4", "workers", "host", "e4");
  }

  @Test
  void validate_hostWithoutMeter_isAWarning() throws Exception {
    file("e3", "yarn-site.xml").set("fawn.energy.meters", "", "test");
    assertNames(only(validate(), Finding.Severity.WARNING), "e3", "yarn-site.xml",
        "fawn.energy.meters", "");
  }

  /** docs/profiles.md's worked example: the paper's 1 + 35 without the two Dell slaves. */
  @Test
  void validate_papersOnePlus35EdisonCluster_isClean() throws Exception {
    String text = Files.readAllLines(Path.of("examples/edison-35.yaml")).stream()
        .filter(line -> !line.contains("dell-")).reduce("", (a, b) -> a + b + "\n");
    Inventory edisons = InventoryReader.parse("edison-1+35.yaml", text, null);
    assertEquals(35, edisons.slaves().size());
    assertEquals(List.of(), Validator.validate(ClusterRenderer.render(edisons).confs()));
  }

  @Test
  void validate_blockSizeBelowTheNameNodeMinimum_isAnError() throws Exception {
    file("e1", "hdfs-site.xml").set("dfs.blocksize", 65536, "test");
    assertNames(only(validate(), Finding.Severity.ERROR), "e1", "hdfs-site.xml", "dfs.blocksize",
        "65536");
  }

  @Test
  void validate_blockSizeAboveALoweredMinimum_isFine() throws Exception {
    file("boss", "hdfs-site.xml").set("dfs.namenode.fs-limits.min-block-size", 32768, "test");
    file("e1", "hdfs-site.xml").set("dfs.blocksize", 65536, "test");
    assertEquals(List.of(), validate());
  }

  @Test
  void validate_replicationAboveDataNodes_isAnError() throws Exception {
    file("e3", "hdfs-site.xml").set("dfs.replication", 4, "test");
    assertNames(only(validate(), Finding.Severity.ERROR), "e3", "hdfs-site.xml",
        "dfs.replication", "4");
  }

  @Test
  void validate_nodeMemoryAboveThePhysical_isAnError() throws Exception {
    file("e1", "yarn-site.xml").set("yarn.nodemanager.resource.memory-mb", 2048, "test");
    List<Finding> findings = validate();
    assertTrue(findings.stream().anyMatch(f -> f.host().equals("e1")
        && f.key().equals("yarn.nodemanager.resource.memory-mb") && f.value().equals("2048")
        && f.message().contains("960")), findings.toString());
  }

  @Test
  void validate_idleVcores_isAWarning() throws Exception {
    file("e1", "yarn-site.xml").set("yarn.nodemanager.resource.cpu-vcores", 8, "test");
    List<Finding> findings = validate();
    assertNames(only(findings, Finding.Severity.WARNING), "e1", "yarn-site.xml",
        "yarn.nodemanager.resource.cpu-vcores", "8");
    assertTrue(findings.get(0).message().startsWith("6 of 8 vcores idle"), findings.toString());
    assertTrue(!Validator.hasErrors(findings));
  }

  @Test
  void validate_mixedEdisonAndDellSlaves_warnsOfOverloadedDells() {
    Inventory mixed = InventoryReader.parse("mixed.yaml", INVENTORY
        + "  - {host: d1, profile: dell-r620}\n", null);
    List<Finding> findings = Validator.validate(ClusterRenderer.render(mixed).confs());
    assertNames(only(findings, Finding.Severity.WARNING), "d1", "yarn-site.xml",
        "yarn.nodemanager.resource.memory-mb", "12288");
  }

  @Test
  void read_brokenXml_namesTheFile() throws Exception {
    cluster.write(dir);
    Files.writeString(dir.resolve("e1/mapred-site.xml"), "<configuration><property>");
    ConfigFileException e = assertThrows(ConfigFileException.class,
        () -> ClusterConfs.read(dir));
    assertTrue(e.getMessage().contains("e1/mapred-site.xml"), e.getMessage());
  }

  @Test
  void read_missingWorkers_isNamed() throws Exception {
    cluster.write(dir);
    Files.delete(dir.resolve("workers"));
    ConfigFileException e = assertThrows(ConfigFileException.class,
        () -> ClusterConfs.read(dir));
    assertTrue(e.getMessage().contains("workers"), e.getMessage());
  }
}
