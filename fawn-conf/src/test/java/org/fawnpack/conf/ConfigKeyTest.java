package org.fawnpack.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigKeyTest {

  enum Mode { FAST, SAFE_MODE }

  private static final ConfigKey<Long> INTERVAL =
      ConfigKey.longKey("fawn.test.interval-ms", 100, 1, 60_000, "Period, in ms.");
  private static final ConfigKey<Long> WRITEBACK =
      ConfigKey.longKeyOrOff("fawn.test.writeback-bytes", 8, 4, 16, "Writeback.");
  private static final ConfigKey<Boolean> ENABLED =
      ConfigKey.booleanKey("fawn.test.enabled", true, "On or off.");
  private static final ConfigKey<Double> FACTOR =
      ConfigKey.doubleKey("fawn.test.factor", 0.9, 0.1, 0.95, "A share.");
  private static final ConfigKey<Mode> MODE = ConfigKey.choiceKey("fawn.test.mode", Mode.FAST,
      m -> m.name().toLowerCase().replace('_', '-'), "How.");

  private static final ConfigKey<String> HOST = ConfigKey.stringKey("fawn.test.host", null,
      "a host name without blanks", v -> !v.isEmpty() && v.chars().noneMatch(Character::isWhitespace),
      "Where.");
  private static final ConfigKey<String> LABEL =
      ConfigKey.stringKey("fawn.test.label", "master", "A label.");

  private static void assertRefused(ConfigKey<?> key, String raw, String allowed) {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> key.parse(raw));
    assertEquals(key.name() + " = " + raw + " is invalid: must be " + allowed, e.getMessage());
    assertEquals(key.name(), e.key());
    assertEquals(raw, e.value());
  }

  @Test
  void parse_unset_givesTheDefault() {
    assertEquals(100L, INTERVAL.parse(null));
    assertEquals(Boolean.TRUE, ENABLED.parse(null));
    assertEquals(Mode.FAST, MODE.parse(null));
  }

  @Test
  void parse_valuesInRange_withBlanksAroundThem() {
    assertEquals(1L, INTERVAL.parse("1"));
    assertEquals(60_000L, INTERVAL.parse(" 60000 "));
    assertEquals(0L, WRITEBACK.parse("0"));
    assertEquals(16L, WRITEBACK.parse("16"));
    assertEquals(0.1, FACTOR.parse("0.1"));
    assertEquals(Mode.SAFE_MODE, MODE.parse("Safe-Mode"));
  }

  @Test
  void parse_outOfRangeOrMalformed_refusedNamingKeyValueAndRange() {
    assertRefused(INTERVAL, "0", "1..60000");
    assertRefused(INTERVAL, "60001", "1..60000");
    assertRefused(INTERVAL, "ten", "1..60000");
    assertRefused(WRITEBACK, "3", "0 (off) or 4..16");
    assertRefused(FACTOR, "0.99", "a number in 0.1..0.95");
    assertRefused(FACTOR, "NaN", "a number in 0.1..0.95");
    assertRefused(MODE, "slow", "one of fast, safe-mode");
  }

  /** A typo in a boolean is an error, never the default. */
  @Test
  void parse_booleans_strict() {
    assertEquals(Boolean.FALSE, ENABLED.parse("FALSE"));
    assertEquals(Boolean.TRUE, ENABLED.parse("true"));
    for (String typo : new String[] {"yes", "1", "ture", "", "on"}) {
      assertRefused(ENABLED, typo, "true or false");
    }
  }

  @Test
  void read_looksTheNameUp() {
    Map<String, String> conf = Map.of("fawn.test.interval-ms", "250");
    assertEquals(250L, INTERVAL.read(conf::get));
    assertEquals(Boolean.TRUE, ENABLED.read(conf::get));
  }

  @Test
  void check_valueSetInCode_sameRuleAsParse() {
    assertEquals(5L, INTERVAL.check(5L));
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> INTERVAL.check(0L));
    assertEquals("fawn.test.interval-ms = 0 is invalid: must be 1..60000", e.getMessage());
    assertThrows(InvalidConfigValueException.class, () -> ENABLED.check(null));
  }

  @Test
  void define_badNameOrDefault_refused() {
    assertThrows(IllegalArgumentException.class,
        () -> ConfigKey.booleanKey("kv.sync", true, "no fawn. prefix"));
    assertThrows(IllegalArgumentException.class,
        () -> ConfigKey.booleanKey("fawn.sync", true, "no module part"));
    assertThrows(InvalidConfigValueException.class,
        () -> ConfigKey.longKey("fawn.test.x", 0, 1, 9, "default outside the range"));
  }

  @Test
  void reference_tableRowsAndMissingRows() {
    List<ConfigKey<?>> keys = List.of(INTERVAL, ENABLED);
    String table = ConfigReference.table(keys);
    assertEquals("| key | default | meaning |\n|---|---|---|\n"
        + "| `fawn.test.interval-ms` | `100` | Period, in ms. |\n"
        + "| `fawn.test.enabled` | `true` | On or off. |\n", table);
    assertEquals(List.of(), ConfigReference.missingFrom("# Doc\n" + table, keys));
    List<String> missing = ConfigReference.missingFrom(
        "| `fawn.test.interval-ms` | `200` | Period, in ms. |\n", keys);
    assertEquals(2, missing.size());
    assertTrue(missing.get(0).contains("the document has: | `fawn.test.interval-ms` | `200`"),
        missing.get(0));
    assertTrue(missing.get(1).endsWith("(no row)"), missing.get(1));
  }

  @Test
  void stringKey_unsetWithoutDefault_readsAsNull_andBadTextIsRefused() {
    assertEquals(null, HOST.parse(null));
    assertEquals("edison-01", HOST.parse(" edison-01 "));
    assertRefused(HOST, "two words", "a host name without blanks");
    assertEquals("master", LABEL.parse(null));
    assertRefused(LABEL, "  ", "any text that is not blank");
    assertEquals("(unset)", HOST.defaultText());
    assertThrows(InvalidConfigValueException.class, () -> HOST.check(null));
  }

  @Test
  void bytesKey_suffixesAndRange_refusedNamingTheRange() {
    ConfigKey<Long> split = ConfigKey.bytesKey("fawn.test.split-bytes", 256L << 20, 1,
        1L << 40, "Split.");
    assertEquals(4L << 20, split.parse("4m"));
    assertEquals("256m", split.defaultText());
    assertRefused(split, "0", "a byte size 1..1t (a number, optionally with k, m, g or t)");
    assertRefused(split, "64mb", "a byte size 1..1t (a number, optionally with k, m, g or t)");
  }

  @Test
  void optionalIntKey_unsetReadsNull_setValueChecked() {
    ConfigKey<Integer> vcores = ConfigKey.optionalIntKey("fawn.test.vcores", 1, 4096, "Vcores.");
    assertEquals(null, vcores.parse(null));
    assertEquals(8, vcores.parse("8"));
    assertEquals("(unset)", vcores.defaultText());
    assertRefused(vcores, "0", "1..4096 or unset");
  }
}
