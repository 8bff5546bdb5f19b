package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The derivation rule of failure domains and the inventory's domain: and address: keys. */
class FailureDomainsTest {

  /** The meters a test may use; an inventory refuses a meter no host lists. */
  private static final Map<String, String> METERS = Map.of(
      "box1", "{type: scpi, address: 10.0.5.1}",
      "box2", "{type: scpi, address: 10.0.5.2}",
      "ups", "{type: apcupsd, address: 10.0.5.3}",
      "pdu", "{type: snmp-pdu, address: 10.0.0.20, preset: apc-outlet, outlet: 1}",
      "own", "{type: hwmon}");

  private static Inventory parse(String hosts) {
    StringBuilder y = new StringBuilder("cluster: c\nmeters: {}\n");
    METERS.forEach((name, spec) -> {
      if (hosts.matches("(?s).*[\\[ ]" + name + "[],].*")) {
        y.append("  ").append(name).append(": ").append(spec).append('\n');
      }
    });
    String text = y.toString().replace("meters: {}\n  ", "meters:\n  ")
        + "hosts:\n  - {host: m, profile: brawny-master}\n" + hosts;
    return InventoryReader.parse("inv.yaml", text, null);
  }

  private static Map<String, String> domains(String hosts) {
    return parse(hosts).domains();
  }

  private static String fails(String hosts) {
    return assertThrows(ConfigFileException.class, () -> parse(hosts)).getMessage();
  }

  @Test
  void derive_sharedScpiSupply_isTheMetersName() {
    Map<String, String> d = domains("  - {host: \"e[1-3]\", profile: edison, meters: [box1]}\n"
        + "  - {host: \"f[1-2]\", profile: edison, meters: [box2]}\n");
    assertEquals(Map.of("m", "/default-rack", "e1", "/box1", "e2", "/box1", "e3", "/box1",
        "f1", "/box2", "f2", "/box2"), d);
  }

  @Test
  void derive_sharedUps_isTheMetersName() {
    assertEquals("/ups", domains("  - {host: \"e[1-2]\", profile: edison, meters: [ups]}\n"
        + "  - {host: x, profile: edison, meters: [box1]}\n").get("e2"));
  }

  @Test
  void derive_pduOutletListedByTwoHosts_isDefaultRack() {
    // a PDU outlet meters one server; two hosts on one meter entry do not make a box
    Map<String, String> d = domains("  - {host: \"e[1-2]\", profile: edison, meters: [pdu]}\n"
        + "  - {host: \"f[1-2]\", profile: edison, meters: [own]}\n");
    assertEquals("/default-rack", d.get("e1"));
    assertEquals("/default-rack", d.get("f2"));
  }

  @Test
  void derive_supplyOfOneHost_isDefaultRack() {
    assertEquals("/default-rack", domains("  - {host: e1, profile: edison, meters: [box1]}\n")
        .get("e1"));
  }

  @Test
  void derive_noMeter_isDefaultRack() {
    assertEquals("/default-rack", domains("  - {host: e1, profile: edison}\n").get("e1"));
  }

  @Test
  void derive_explicitDomain_winsOverTheSupply() {
    Map<String, String> d = domains("  - {host: \"e[1-2]\", profile: edison, meters: [box1]}\n"
        + "  - {host: e3, profile: edison, meters: [box1], domain: /top}\n");
    assertEquals("/top", d.get("e3"));
    assertEquals("/box1", d.get("e1"));
  }

  @Test
  void derive_twoSharedSupplies_isRefusedNamingTheHost() {
    String message = fails("  - {host: \"e[1-2]\", profile: edison, meters: [box1, box2]}\n");
    assertTrue(message.startsWith("inv.yaml: "), message);
    assertTrue(message.contains("host e1"), message);
    assertTrue(message.contains("give it a domain:"), message);
  }

  @Test
  void derive_twoSharedSuppliesWithADomain_isFine() {
    assertEquals("/pair", domains("  - {host: \"e[1-2]\", profile: edison, meters: [box1, box2],"
        + " domain: /pair}\n").get("e2"));
  }

  @Test
  void domain_differentDepths_isRefused() {
    String message = fails("  - {host: e1, profile: edison, domain: /room1/box1}\n");
    assertTrue(message.contains("host e1"), message);
    assertTrue(message.contains("InvalidTopologyException"), message);
  }

  @Test
  void domain_withoutLeadingSlash_isRefusedNamingFileAndHost() {
    String message = fails("  - {host: \"e[1-2]\", profile: edison, domain: box1}\n");
    assertTrue(message.startsWith("inv.yaml: hosts[1].domain=box1: host e[1-2]"), message);
  }

  @Test
  void domain_withSpace_isRefused() {
    assertTrue(fails("  - {host: e1, profile: edison, domain: \"/box 1\"}\n")
        .contains("host e1"));
  }

  @Test
  void domain_trailingSlashOrEmptyLevel_isRefused() {
    assertTrue(fails("  - {host: e1, profile: edison, domain: /box1/}\n").contains("/box1/"));
    assertTrue(fails("  - {host: e1, profile: edison, domain: //box1}\n").contains("//box1"));
    assertTrue(fails("  - {host: e1, profile: edison, domain: /}\n").contains("host e1"));
  }

  @Test
  void address_rangeFollowsTheHostRange() {
    Inventory inv = parse("  - {host: \"e[08-10]\", profile: edison, address: \"10.0.1.[18-20]\"}\n");
    assertEquals("10.0.1.18", inv.hosts().get(1).address());
    assertEquals("10.0.1.20", inv.hosts().get(3).address());
    assertNull(inv.master().address());
  }

  @Test
  void address_rangeOfAnotherLength_isRefused() {
    assertTrue(fails("  - {host: \"e[1-3]\", profile: edison, address: \"10.0.1.[1-2]\"}\n")
        .contains("2 address(es) for 3 host(s)"));
  }

  @Test
  void address_notAnIpv4Address_isRefusedNamingTheHost() {
    assertTrue(fails("  - {host: e1, profile: edison, address: edison-01.lan}\n")
        .contains("host e1"));
    assertTrue(fails("  - {host: e1, profile: edison, address: 10.0.1.300}\n")
        .contains("10.0.1.300"));
    // Hadoop looks up InetAddress.getHostAddress(), which never has leading zeros
    assertTrue(fails("  - {host: \"e[1-2]\", profile: edison, address: \"10.0.1.[01-02]\"}\n")
        .contains("10.0.1.01"));
  }

  @Test
  void address_givenTwice_isRefused() {
    assertTrue(fails("  - {host: e1, profile: edison, address: 10.0.1.1}\n"
        + "  - {host: e2, profile: edison, address: 10.0.1.1}\n").contains("host e2"));
  }

  @Test
  void confDir_relative_isRefused() {
    String message = assertThrows(ConfigFileException.class, () -> InventoryReader.parse(
        "inv.yaml", "cluster: c\nhadoop-conf-dir: etc/hadoop\nhosts:\n"
        + "  - {host: m, profile: brawny-master}\n  - {host: e1, profile: edison}\n", null))
        .getMessage();
    assertTrue(message.contains("hadoop-conf-dir=etc/hadoop"), message);
  }
}
