package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProfileReaderTest {

  private static final String GOOD = String.join("\n",
      "name: tiny",
      "role: slave",
      "resources:",
      "  cores: {value: 2, source: s}",
      "  memory-mb: {value: 960, source: s}",
      "  disks: {value: 1, source: s}",
      "  nic-mbps: {value: 100, source: s}",
      "power:",
      "  idle-watts: {value: 1.4, source: s}",
      "  busy-watts: {value: 1.68, source: s}",
      "tuning:",
      "  node-memory-mb: {value: 600, source: s}",
      "  vcores: {value: 2, source: s}",
      "  container-mb: {value: 300, source: s}",
      "  map-memory-mb: {value: 150, source: s}",
      "  map-heap-mb: {value: 140, source: s}",
      "  io-sort-mb: {value: 70, source: s}",
      "  reduce-memory-mb: {value: 300, source: s}",
      "  reduce-heap-mb: {value: 260, source: s}",
      "  am-memory-mb: {value: 100, source: s}",
      "  am-heap-mb: {value: 80, source: s}",
      "  block-size-mb: {value: 16, source: s}",
      "  replication: {value: 2, source: s}",
      "");

  @Test
  void builtIn_everyProfileLoadsWithASourcePerNumber() {
    for (String name : ProfileReader.BUILT_IN) {
      Profile p = ProfileReader.builtIn(name);
      assertEquals(name, p.name());
      assertTrue(Setting.requiredFor(p.role()).stream().allMatch(p::has), name);
      p.tuning().values().forEach(s -> assertFalse(s.source().isBlank(), name));
    }
  }

  @Test
  void builtIn_edisonHasThePapersNodeAndJava17Heaps() {
    Profile e = ProfileReader.builtIn("edison");
    // Seed 003 §5.2, §5.2.1 and Table 3, typed in from the paper; the JVMs sized with the
    // measured Java 17 non-heap (130 MB per task, 170 per AM; docs/profiles.md).
    assertEquals(600, e.get(Setting.NODE_MEMORY_MB));
    assertEquals(2, e.get(Setting.VCORES));
    assertEquals(250, e.get(Setting.MAP_MEMORY_MB));
    assertEquals(120, e.get(Setting.MAP_HEAP_MB));
    assertEquals(300, e.get(Setting.REDUCE_MEMORY_MB));
    assertEquals(170, e.get(Setting.REDUCE_HEAP_MB));
    assertEquals(300, e.get(Setting.AM_MEMORY_MB));
    assertEquals(16, e.get(Setting.BLOCK_SIZE_MB));
    assertEquals(1.40, e.power().orElseThrow().idleWatts().value());
    assertEquals(1.68, e.power().orElseThrow().busyWatts().value());
  }

  @Test
  void parse_goodProfile() {
    Profile p = ProfileReader.parse("tiny.yaml", GOOD);
    assertEquals(Role.SLAVE, p.role());
    assertEquals(70, p.get(Setting.IO_SORT_MB));
  }

  @Test
  void parse_missingSource_namesFileAndKey() {
    ConfigFileException e = assertThrows(ConfigFileException.class, () -> ProfileReader.parse(
        "tiny.yaml", GOOD.replace("map-heap-mb: {value: 140, source: s}",
            "map-heap-mb: {value: 140}")));
    assertTrue(e.getMessage().startsWith("tiny.yaml: tuning.map-heap-mb.source"), e.getMessage());
  }

  @Test
  void parse_numberNotANumber_namesKeyAndValue() {
    ConfigFileException e = assertThrows(ConfigFileException.class, () -> ProfileReader.parse(
        "tiny.yaml", GOOD.replace("{value: 150, source: s}", "{value: lots, source: s}")));
    assertTrue(e.getMessage().contains("tuning.map-memory-mb.value=lots"), e.getMessage());
  }

  @Test
  void parse_unknownKey_isRejected() {
    ConfigFileException e = assertThrows(ConfigFileException.class, () -> ProfileReader.parse(
        "tiny.yaml", GOOD.replace("  vcores:", "  vcorez:")));
    assertTrue(e.getMessage().contains("tuning.vcorez"), e.getMessage());
  }

  @Test
  void parse_missingRequiredSetting_isRejected() {
    ConfigFileException e = assertThrows(ConfigFileException.class, () -> ProfileReader.parse(
        "tiny.yaml", GOOD.replace("  replication: {value: 2, source: s}\n", "")));
    assertTrue(e.getMessage().contains("tuning.replication: is required"), e.getMessage());
  }

  @Test
  void parse_busyBelowIdle_isRejected() {
    ConfigFileException e = assertThrows(ConfigFileException.class, () -> ProfileReader.parse(
        "tiny.yaml", GOOD.replace("{value: 1.68, source: s}", "{value: 1.0, source: s}")));
    assertTrue(e.getMessage().contains("power.busy-watts=1.0"), e.getMessage());
  }

  @Test
  void parse_badRole_namesValue() {
    ConfigFileException e = assertThrows(ConfigFileException.class, () -> ProfileReader.parse(
        "tiny.yaml", GOOD.replace("role: slave", "role: boss")));
    assertTrue(e.getMessage().contains("role=boss"), e.getMessage());
  }

  @Test
  void parse_notYaml_namesFile() {
    ConfigFileException e = assertThrows(ConfigFileException.class,
        () -> ProfileReader.parse("broken.yaml", "name: [unclosed"));
    assertTrue(e.getMessage().startsWith("broken.yaml:"), e.getMessage());
  }

  @Test
  void parse_masterNeedsNoTaskSizes() {
    Profile m = ProfileReader.builtIn("brawny-master");
    assertEquals(Role.MASTER, m.role());
    assertFalse(m.has(Setting.MAP_MEMORY_MB));
  }

  @Test
  void load_unknownName_listsBuiltIns() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ProfileReader.load("cray-1"));
    assertTrue(e.getMessage().contains("edison"), e.getMessage());
  }
}
