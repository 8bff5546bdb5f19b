package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InventoryReaderTest {

  private static Inventory parse(String text) {
    return InventoryReader.parse("inv.yaml", text, null);
  }

  private static String fails(String text) {
    return assertThrows(ConfigFileException.class, () -> parse(text)).getMessage();
  }

  @Test
  void parse_rangesExpandWithTheirWidth() {
    Inventory inv = parse("cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: \"e-[08-11]\", profile: edison}\n");
    assertEquals(List.of("m", "e-08", "e-09", "e-10", "e-11"),
        inv.hosts().stream().map(Inventory.Host::name).toList());
    assertEquals("m", inv.master().name());
  }

  @Test
  void parse_sharedMeter_listsItsHosts() {
    Inventory inv = parse("cluster: c\nmeters:\n  box: {type: scpi, address: 10.0.0.9}\n"
        + "hosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: \"e[1-3]\", profile: edison, meters: [box]}\n");
    assertEquals(List.of("e1", "e2", "e3"), inv.hostsOf("box"));
  }

  @Test
  void parse_exampleInventories_load() {
    Inventory paper = InventoryReader.read(Path.of("examples/edison-35.yaml"));
    assertEquals(38, paper.hosts().size());
    assertEquals(35, paper.hosts().stream().filter(h -> h.profile().name().equals("edison"))
        .count());
    // Seed 003 §3: five boxes of seven Edisons, each box on one DC supply (an SCPI meter);
    // the Dell master and two Dell slaves on rack PDU outlets.
    for (int box = 1; box <= 5; box++) {
      assertEquals(7, paper.hostsOf("box" + box).size());
      assertEquals("scpi", paper.meters().get("box" + box).get("type"));
    }
    assertEquals("master", paper.master().name());
    assertEquals("brawny-master", paper.master().profile().name());
    List<Inventory.Host> dells = paper.slaves().stream()
        .filter(h -> h.profile().name().equals("dell-r620")).toList();
    assertEquals(2, dells.size());
    for (Inventory.Host h : dells) {
      assertEquals(1, h.meters().size(), h.name());
      Map<String, String> pdu = paper.meters().get(h.meters().get(0));
      assertEquals("snmp-pdu", pdu.get("type"), h.name());
      assertTrue(pdu.containsKey("outlet"), h.name());
    }
    assertEquals(9, InventoryReader.read(Path.of("examples/arm-small.yaml")).hosts().size());
  }

  @Test
  void parse_notYaml_namesTheFile() {
    assertTrue(fails("cluster: c\nhosts: [{host: m, profile: brawny-master}\n")
        .startsWith("inv.yaml: (document): is not valid YAML"));
  }

  @Test
  void parse_missingHosts_namesTheKey() {
    assertTrue(fails("cluster: c\n").contains("inv.yaml: hosts: is required"));
  }

  @Test
  void parse_hostWithoutProfile_namesTheEntry() {
    assertTrue(fails("cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: e1}\n").contains("inv.yaml: hosts[1].profile: is required"));
  }

  @Test
  void parse_backwardsRange_namesTheValue() {
    assertTrue(fails("cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: \"e[9-2]\", profile: edison}\n").contains("hosts[1].host=e[9-2]"));
  }

  @Test
  void parse_duplicateHost_isNamed() {
    assertTrue(fails("cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: \"e[1-2]\", profile: edison}\n  - {host: e2, profile: edison}\n")
        .contains("hosts[2].host=e2: is listed twice"));
  }

  @Test
  void parse_noMaster_isRejected() {
    assertTrue(fails("cluster: c\nhosts:\n  - {host: \"e[1-2]\", profile: edison}\n")
        .contains("exactly one host needs a master profile"));
  }

  @Test
  void parse_unknownProfile_namesTheEntry() {
    assertTrue(fails("cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: e, profile: edisun}\n").contains("hosts[1].profile=edisun"));
  }

  @Test
  void parse_unknownMeter_namesTheEntry() {
    assertTrue(fails("cluster: c\nhosts:\n  - {host: m, profile: brawny-master}\n"
        + "  - {host: e, profile: edison, meters: [nope]}\n").contains("hosts[1].meters=nope"));
  }

  @Test
  void parse_passphraseInMeter_isRefused() {
    assertTrue(fails("cluster: c\nmeters:\n  pdu: {type: snmp-pdu, auth-passphrase: secret1}\n"
        + "hosts:\n  - {host: m, profile: brawny-master, meters: [pdu]}\n"
        + "  - {host: e, profile: edison}\n").contains("credential provider"));
  }

  @Test
  void parse_unusedMeter_isRejected() {
    assertTrue(fails("cluster: c\nmeters:\n  spare: {type: scpi, address: x}\nhosts:\n"
        + "  - {host: m, profile: brawny-master}\n  - {host: e, profile: edison}\n")
        .contains("meters.spare: is used by no host"));
  }

  @Test
  void parse_overridesOfAFileNotRendered_refused() {
    String message = fails("cluster: c\noverrides:\n  site.xml: {a: b}\nhosts:\n"
        + "  - {host: m, profile: brawny-master}\n  - {host: e, profile: edison}\n");
    assertTrue(message.contains("overrides.site.xml"), message);
    assertTrue(message.contains("yarn-site.xml"), message);
  }

  @Test
  void parse_hostNamedLikeTheClientDirectory_refused() {
    String message = fails("cluster: c\nhosts:\n"
        + "  - {host: m, profile: brawny-master}\n  - {host: client, profile: edison}\n");
    assertTrue(message.contains("client"), message);
  }

  @Test
  void parse_dataDirsWithoutDisk_refused() {
    String message = fails("cluster: c\ndata-dirs: /data/hadoop\nhosts:\n"
        + "  - {host: m, profile: brawny-master}\n  - {host: e, profile: edison}\n");
    assertTrue(message.contains("data-dirs") && message.contains("{disk}"), message);
  }

  @Test
  void parse_relativeHadoopHome_refused() {
    String message = fails("cluster: c\nhadoop-home: opt/hadoop\nhosts:\n"
        + "  - {host: m, profile: brawny-master}\n  - {host: e, profile: edison}\n");
    assertTrue(message.contains("hadoop-home"), message);
  }
}
