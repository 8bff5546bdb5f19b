package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rack-awareness rules of validate: render a cluster over two boxes, write it, break the
 * table in one directory, read the directory back and expect the finding.
 */
class TopologyRulesTest {

  private static final String TWO_BOXES = "cluster: boxes\nmeters:\n"
      + "  box1: {type: scpi, address: 10.0.5.1}\n"
      + "  box2: {type: scpi, address: 10.0.5.2}\n"
      + "hosts:\n"
      + "  - {host: boss, profile: brawny-master, address: 10.0.0.1}\n"
      + "  - {host: \"e[1-2]\", profile: edison, meters: [box1], address: \"10.0.1.[1-2]\"}\n"
      + "  - {host: \"f[1-2]\", profile: edison, meters: [box2], address: \"10.0.2.[1-2]\"}\n";

  @TempDir
  Path dir;

  private static RenderedCluster render(String inventory) {
    return ClusterRenderer.render(InventoryReader.parse("boxes.yaml", inventory, null));
  }

  private List<Finding> writeAndValidate(RenderedCluster cluster) throws Exception {
    cluster.write(dir);
    return Validator.validate(ClusterConfs.read(dir));
  }

  private static List<Finding> of(List<Finding> findings, Finding.Severity severity) {
    return findings.stream().filter(f -> f.severity() == severity).toList();
  }

  @Test
  void validate_twoBoxesWithAddresses_isClean() throws Exception {
    RenderedCluster cluster = render(TWO_BOXES);
    assertEquals("/etc/hadoop/conf/topology.table",
        cluster.hosts().get("e1").get("core-site.xml").get(TopologyTable.TABLE_KEY));
    assertEquals(List.of(), writeAndValidate(cluster));
    assertTrue(Files.isRegularFile(dir.resolve("client/topology.table")));
    assertEquals(List.of(), Validator.validate(render(TWO_BOXES).confs()));
  }

  @Test
  void validate_tableMissing_isAnErrorNamingFileAndHost() throws Exception {
    RenderedCluster cluster = render(TWO_BOXES);
    cluster.write(dir);
    Files.delete(dir.resolve("f1/topology.table"));
    List<Finding> errors = of(Validator.validate(ClusterConfs.read(dir)), Finding.Severity.ERROR);
    assertEquals(1, errors.size(), errors.toString());
    Finding f = errors.get(0);
    assertEquals("f1", f.host());
    assertEquals("topology.table", f.file());
    assertEquals(dir.resolve("f1/topology.table").toString(), f.value());
    assertTrue(f.message().contains("is missing"), f.toString());
  }

  @Test
  void validate_tableLacksAHost_isAnErrorNamingFileAndHost() throws Exception {
    RenderedCluster cluster = render(TWO_BOXES);
    cluster.write(dir);
    Path table = dir.resolve("boss/topology.table");
    Files.writeString(table, Files.readString(table).replaceAll("(?m)^e2 .*\\n", ""));
    List<Finding> errors = of(Validator.validate(ClusterConfs.read(dir)), Finding.Severity.ERROR);
    assertEquals(1, errors.size(), errors.toString());
    Finding f = errors.get(0);
    assertEquals("boss", f.host());
    assertEquals("topology.table", f.file());
    assertEquals("e2", f.value());
    assertTrue(f.message().contains(table.toString()), f.toString());
  }

  @Test
  void validate_tableOfTheClientLacksAHost_isAnError() throws Exception {
    RenderedCluster cluster = render(TWO_BOXES);
    cluster.write(dir);
    Path table = dir.resolve("client/topology.table");
    Files.writeString(table, Files.readString(table).replaceAll("(?m)^boss .*\\n", ""));
    Finding f = of(Validator.validate(ClusterConfs.read(dir)), Finding.Severity.ERROR).get(0);
    assertEquals(RenderedCluster.CLIENT_DIR, f.host());
    assertEquals("boss", f.value());
  }

  @Test
  void validate_relativeTablePath_isAnError() throws Exception {
    String inventory = TWO_BOXES.replace("hosts:\n", "overrides:\n  core-site.xml:"
        + " {net.topology.table.file.name: topology.table}\nhosts:\n");
    List<Finding> errors = of(writeAndValidate(render(inventory)), Finding.Severity.ERROR);
    assertEquals(6, errors.size(), errors.toString()); // 5 hosts and client/
    assertEquals("net.topology.table.file.name", errors.get(0).key());
    assertEquals("topology.table", errors.get(0).value());
  }

  @Test
  void validate_racksOfDifferentDepths_isAnError() throws Exception {
    RenderedCluster cluster = render(TWO_BOXES);
    cluster.write(dir);
    Path table = dir.resolve("e1/topology.table");
    Files.writeString(table, Files.readString(table).replace("e1 /box1", "e1 /room/box1"));
    Finding f = of(Validator.validate(ClusterConfs.read(dir)), Finding.Severity.ERROR).get(0);
    assertEquals("e1", f.host());
    assertEquals("racks", f.key());
  }

  @Test
  void validate_allDataNodesInOneDomain_warnsOnReplication() throws Exception {
    String oneBox = "cluster: onebox\nmeters:\n  box1: {type: scpi, address: 10.0.5.1}\n"
        + "hosts:\n  - {host: boss, profile: brawny-master, domain: /office, address: 10.0.0.1}\n"
        + "  - {host: \"e[1-3]\", profile: edison, meters: [box1], address: \"10.0.1.[1-3]\"}\n";
    List<Finding> findings = writeAndValidate(render(oneBox));
    assertEquals(List.of(), of(findings, Finding.Severity.ERROR));
    List<Finding> warnings = of(findings, Finding.Severity.WARNING);
    assertEquals(1, warnings.size(), warnings.toString());
    Finding f = warnings.get(0);
    assertEquals("boss", f.host());
    assertEquals("hdfs-site.xml", f.file());
    assertEquals("dfs.replication", f.key());
    assertEquals("2", f.value());
    assertTrue(f.message().contains("/box1"), f.toString());
  }

  @Test
  void validate_oneDataNodeDomainWithReplicationOne_isClean() throws Exception {
    String oneBox = "cluster: onebox\nmeters:\n  box1: {type: scpi, address: 10.0.5.1}\n"
        + "hosts:\n  - {host: boss, profile: brawny-master, domain: /office, address: 10.0.0.1}\n"
        + "  - {host: \"e[1-3]\", profile: edison, meters: [box1], address: \"10.0.1.[1-3]\"}\n"
        + "overrides:\n  hdfs-site.xml: {dfs.replication: 1}\n";
    assertEquals(List.of(), writeAndValidate(render(oneBox)));
  }

  @Test
  void validate_tableWithoutAddresses_warnsOnce() throws Exception {
    String namesOnly = TWO_BOXES.replaceAll(", address: [^}]*", "");
    List<Finding> findings = writeAndValidate(render(namesOnly));
    List<Finding> warnings = of(findings, Finding.Severity.WARNING);
    assertEquals(1, warnings.size(), findings.toString());
    assertEquals("boss", warnings.get(0).host());
    assertEquals("0 of 5", warnings.get(0).value());
  }

  @Test
  void render_oneDomain_writesNoTableAndNoMapping() throws Exception {
    RenderedCluster cluster = render("cluster: flat\nhosts:\n"
        + "  - {host: boss, profile: brawny-master}\n  - {host: \"e[1-3]\", profile: edison}\n");
    cluster.write(dir);
    assertEquals(null, cluster.hosts().get("e1").get("core-site.xml")
        .get(TopologyTable.MAPPING_KEY));
    assertTrue(Files.notExists(dir.resolve("e1/topology.table")));
    assertTrue(Files.notExists(dir.resolve("client/topology.table")));
    assertTrue(Files.readString(dir.resolve("README.md")).contains("racks: none rendered"));
  }
}
