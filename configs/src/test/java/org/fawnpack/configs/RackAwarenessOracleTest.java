package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.util.ReflectionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rendered rack awareness as Hadoop itself reads it: render, install one rendered directory
 * where the inventory's hadoop-conf-dir says (as the README's rsync does), load its core-site.xml
 * into a Configuration, build the mapping the way the NameNode and the ResourceManager do
 * ({@code ReflectionUtils.newInstance(conf.getClass("net.topology.node.switch.mapping.impl",
 * ...), conf)}) and resolve every host. The racks expected are worked out here from the inventory
 * the test writes, not by the renderer's code.
 *
 * <p>Host names end in {@code .invalid} (RFC 6761: they never resolve), since Hadoop looks a
 * name that resolves up by its IP address; the NameNode itself always asks by IP.
 */
class RackAwarenessOracleTest {

  @TempDir
  Path tmp;

  /** One host line of a test inventory, and the rack the test expects for it. */
  private record TestHost(String name, String profile, String meter, String domain,
      String address) {}

  /** The meters of the test inventories: two bench supplies, a UPS, PDU outlets. */
  private static final Map<String, String> METER_TYPES = Map.of("boxa", "scpi", "boxb", "scpi",
      "ups", "apcupsd", "lone", "scpi", "pdu1", "snmp-pdu", "pdu2", "snmp-pdu");

  /**
   * The rule as docs/profiles.md states it, worked out independently: an explicit domain; else a
   * supply meter (scpi, apcupsd) that two or more hosts share; else /default-rack.
   */
  private static Map<String, String> expectedRacks(List<TestHost> hosts) {
    Map<String, String> racks = new LinkedHashMap<>();
    for (TestHost h : hosts) {
      long sharing = hosts.stream().filter(o -> h.meter() != null && h.meter().equals(o.meter()))
          .count();
      String type = h.meter() == null ? null : METER_TYPES.get(h.meter());
      boolean supply = "scpi".equals(type) || "apcupsd".equals(type);
      racks.put(h.name(), h.domain() != null ? h.domain()
          : supply && sharing >= 2 ? "/" + h.meter() : "/default-rack");
    }
    return racks;
  }

  private String inventory(Path confDir, List<TestHost> hosts) {
    StringBuilder y = new StringBuilder("cluster: oracle\nhadoop-conf-dir: " + confDir
        + "\nmeters:\n");
    hosts.stream().map(TestHost::meter).filter(m -> m != null).distinct().forEach(m -> y
        .append("  ").append(m).append(": {type: ").append(METER_TYPES.get(m))
        .append(", address: 10.9.9.9}\n"));
    y.append("hosts:\n");
    for (TestHost h : hosts) {
      y.append("  - {host: ").append(h.name()).append(", profile: ").append(h.profile());
      if (h.meter() != null) {
        y.append(", meters: [").append(h.meter()).append(']');
      }
      if (h.domain() != null) {
        y.append(", domain: ").append(h.domain());
      }
      if (h.address() != null) {
        y.append(", address: ").append(h.address());
      }
      y.append("}\n");
    }
    return y.toString();
  }

  /** Renders, installs {@code dir} (a host's or client/) at the conf dir, builds the mapping. */
  private DNSToSwitchMapping installAndLoad(String inventoryText, Path confDir, String dir)
      throws IOException {
    Path out = tmp.resolve("rendered");
    ClusterRenderer.render(InventoryReader.parse("oracle.yaml", inventoryText, null)).write(out);
    copyDir(out.resolve(dir), confDir);
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve("core-site.xml").toUri()));
    Class<? extends DNSToSwitchMapping> impl = conf.getClass(
        "net.topology.node.switch.mapping.impl", ScriptBasedMapping.class,
        DNSToSwitchMapping.class);
    return ReflectionUtils.newInstance(impl, conf);
  }

  private static void copyDir(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }

  private static List<TestHost> boxes() {
    List<TestHost> hosts = new ArrayList<>();
    hosts.add(new TestHost("boss.fawn.invalid", "brawny-master", "pdu1", null, "10.1.0.1"));
    for (int i = 1; i <= 3; i++) {
      hosts.add(new TestHost("a" + i + ".fawn.invalid", "edison", "boxa", null, "10.1.1." + i));
    }
    for (int i = 1; i <= 2; i++) {
      hosts.add(new TestHost("b" + i + ".fawn.invalid", "edison", "boxb", null, "10.1.2." + i));
    }
    hosts.add(new TestHost("u1.fawn.invalid", "edison", "ups", null, "10.1.3.1"));
    hosts.add(new TestHost("u2.fawn.invalid", "edison", "ups", null, "10.1.3.2"));
    hosts.add(new TestHost("bench.fawn.invalid", "edison", "boxa", "/bench", "10.1.4.1"));
    hosts.add(new TestHost("solo.fawn.invalid", "edison", "lone", null, "10.1.5.1"));
    hosts.add(new TestHost("dell.fawn.invalid", "dell-r620", "pdu2", null, "10.1.6.1"));
    return hosts;
  }

  @Test
  void tableMapping_everyHostResolvesToItsInventoryDomain() throws Exception {
    List<TestHost> hosts = boxes();
    Path confDir = tmp.resolve("etc/hadoop/conf");
    DNSToSwitchMapping mapping = installAndLoad(inventory(confDir, hosts), confDir,
        "boss.fawn.invalid");
    Map<String, String> expected = expectedRacks(hosts);
    assertEquals("/boxa", expected.get("a1.fawn.invalid")); // the oracle itself, sanity
    List<String> names = new ArrayList<>(expected.keySet());
    assertEquals(new ArrayList<>(expected.values()), mapping.resolve(names));
    // as the NameNode asks for a DataNode: by its IP address
    List<String> ips = hosts.stream().map(TestHost::address).toList();
    assertEquals(new ArrayList<>(expected.values()), mapping.resolve(ips));
  }

  @Test
  void tableMapping_clientDirectoryResolvesLikeTheHosts() throws Exception {
    List<TestHost> hosts = boxes();
    Path confDir = tmp.resolve("conf");
    DNSToSwitchMapping mapping = installAndLoad(inventory(confDir, hosts), confDir, "client");
    Map<String, String> expected = expectedRacks(hosts);
    assertEquals(new ArrayList<>(expected.values()),
        mapping.resolve(new ArrayList<>(expected.keySet())));
  }

  @Test
  void tableMapping_papersCluster_eachBoxIsARack() throws Exception {
    Path confDir = tmp.resolve("installed");
    String text = Files.readString(Path.of("examples/edison-35.yaml"))
        .replace("hadoop-conf-dir: /etc/hadoop/conf", "hadoop-conf-dir: " + confDir);
    DNSToSwitchMapping mapping = installAndLoad(text, confDir, "edison-09");
    // edison-NN sits in box (NN-1)/7+1 at 10.0.1.NN; master and the Dells are on PDU outlets
    List<String> ips = new ArrayList<>();
    List<String> racks = new ArrayList<>();
    for (int n = 1; n <= 35; n++) {
      ips.add("10.0.1." + n);
      racks.add("/box" + ((n - 1) / 7 + 1));
    }
    ips.addAll(List.of("10.0.0.10", "10.0.0.11", "10.0.0.12"));
    racks.addAll(List.of("/default-rack", "/default-rack", "/default-rack"));
    assertEquals(racks, mapping.resolve(ips));
  }

  /**
   * Why the table carries addresses: Hadoop resolves a name to its IP before the lookup, so a
   * host known to the table only by a name that resolves lands in /default-rack.
   */
  @Test
  void tableMapping_resolvableNameWithoutAddress_landsInDefaultRack() throws Exception {
    List<TestHost> hosts = List.of(
        new TestHost("boss.fawn.invalid", "brawny-master", null, null, null),
        new TestHost("localhost", "edison", null, "/box1", null),
        new TestHost("e2.fawn.invalid", "edison", null, "/box2", null));
    Path confDir = tmp.resolve("c1");
    DNSToSwitchMapping mapping = installAndLoad(inventory(confDir, hosts), confDir, "localhost");
    assertEquals(List.of("/default-rack", "/box2"),
        mapping.resolve(List.of("localhost", "e2.fawn.invalid")));
  }

  @Test
  void tableMapping_resolvableNameWithAddress_findsItsRack() throws Exception {
    List<TestHost> hosts = List.of(
        new TestHost("boss.fawn.invalid", "brawny-master", null, null, null),
        new TestHost("localhost", "edison", null, "/box1", "127.0.0.1"),
        new TestHost("e2.fawn.invalid", "edison", null, "/box2", null));
    Path confDir = tmp.resolve("c2");
    DNSToSwitchMapping mapping = installAndLoad(inventory(confDir, hosts), confDir, "localhost");
    assertEquals(List.of("/box1", "/box1"), mapping.resolve(List.of("localhost", "127.0.0.1")));
  }

  @Test
  void render_oneDomain_leavesHadoopsDefaultMapping() throws Exception {
    List<TestHost> hosts = List.of(
        new TestHost("boss.fawn.invalid", "brawny-master", null, null, null),
        new TestHost("e1.fawn.invalid", "edison", "pdu1", null, null),
        new TestHost("e2.fawn.invalid", "edison", "pdu2", null, null));
    Path confDir = tmp.resolve("flat");
    DNSToSwitchMapping mapping = installAndLoad(inventory(confDir, hosts), confDir,
        "e1.fawn.invalid");
    assertTrue(mapping instanceof ScriptBasedMapping, mapping.getClass().getName());
    assertFalse(Files.exists(confDir.resolve("topology.table")));
    assertEquals(List.of("/default-rack", "/default-rack"),
        mapping.resolve(List.of("e1.fawn.invalid", "e2.fawn.invalid")));
  }
}
