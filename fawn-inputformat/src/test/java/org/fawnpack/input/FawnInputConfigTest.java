package org.fawnpack.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class FawnInputConfigTest {

  private static Configuration conf(String... keyValues) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < keyValues.length; i += 2) {
      conf.set(keyValues[i], keyValues[i + 1]);
    }
    return conf;
  }

  private static void assertMentions(Exception e, String... parts) {
    for (String part : parts) {
      assertTrue(e.getMessage().contains(part), "'" + e.getMessage() + "' should mention " + part);
    }
  }

  @Test
  void policy_unset_isOnePerVcore() {
    assertEquals(CombineSplitPolicy.ONE_PER_VCORE, FawnInputConfig.policy(conf()));
  }

  @ParameterizedTest
  @CsvSource({
    "one-per-vcore, ONE_PER_VCORE",
    "fixed, FIXED",
    "FIXED, FIXED",
    "'  fixed ', FIXED",
    "One-Per-Vcore, ONE_PER_VCORE"
  })
  void policy_knownName_isParsed(String value, CombineSplitPolicy expected) {
    assertEquals(expected, FawnInputConfig.policy(conf(FawnInputConfig.POLICY.name(), value)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"per-vcore", "fixed-size", "one_per_vcore", "bogus"})
  void policy_unknownName_rejectedNamingKeyAndValue(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FawnInputConfig.policy(conf(FawnInputConfig.POLICY.name(), value)));
    assertMentions(e, "fawn.input.combine.policy", value, "one-per-vcore", "fixed");
  }

  @Test
  void explicitVcores_unset_isZero() {
    assertEquals(0, FawnInputConfig.explicitVcores(conf()));
  }

  @Test
  void explicitVcores_blank_isZero() {
    assertEquals(0, FawnInputConfig.explicitVcores(conf(FawnInputConfig.VCORES.name(), "  ")));
  }

  @ParameterizedTest
  @CsvSource({"1, 1", "48, 48", "' 7 ', 7"})
  void explicitVcores_positive_isParsed(String value, int expected) {
    assertEquals(expected, FawnInputConfig.explicitVcores(conf(FawnInputConfig.VCORES.name(), value)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-4", "abc", "4.5", "99999999999", "4k"})
  void explicitVcores_notAPositiveInt_rejectedNamingKeyAndValue(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FawnInputConfig.explicitVcores(conf(FawnInputConfig.VCORES.name(), value)));
    assertMentions(e, "fawn.input.combine.vcores", value);
  }

  @Test
  void splitBytes_unset_areTheDefaults() {
    assertEquals(256L << 20, FawnInputConfig.maxSplitBytes(conf()));
    assertEquals(4L << 20, FawnInputConfig.minSplitBytes(conf()));
  }

  @ParameterizedTest
  @CsvSource({
    "64m, 67108864",
    "64M, 67108864",
    "1k, 1024",
    "2g, 2147483648",
    "1t, 1099511627776",
    "12345, 12345",
    "' 3m ', 3145728"
  })
  void maxSplitBytes_sizeWithSuffix_isParsed(String value, long expected) {
    assertEquals(expected,
        FawnInputConfig.maxSplitBytes(conf(FawnInputConfig.MAX_SPLIT_BYTES.name(), value)));
  }

  @Test
  void minSplitBytes_unsetWithMaxBelowDefaultFloor_isTheMax() {
    assertEquals(1L << 20, FawnInputConfig.minSplitBytes(conf(FawnInputConfig.MAX_SPLIT_BYTES.name(), "1m")));
  }

  @Test
  void minSplitBytes_sizeWithSuffix_isParsed() {
    assertEquals(1024, FawnInputConfig.minSplitBytes(conf(FawnInputConfig.MIN_SPLIT_BYTES.name(), "1k")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1k", "lots", "1.5m", "64mb", "9e", "99999999999999999999"})
  void maxSplitBytes_notAPositiveSize_rejectedNamingKeyAndValue(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FawnInputConfig.maxSplitBytes(conf(FawnInputConfig.MAX_SPLIT_BYTES.name(), value)));
    assertMentions(e, "fawn.input.combine.max-split-bytes", value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "none", "9e"})
  void minSplitBytes_notAPositiveSize_rejectedNamingKeyAndValue(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FawnInputConfig.minSplitBytes(conf(FawnInputConfig.MIN_SPLIT_BYTES.name(), value)));
    assertMentions(e, "fawn.input.combine.min-split-bytes", value);
  }

  @Test
  void minSplitBytes_aboveMax_rejectedNamingBothKeys() {
    Configuration conf = conf(FawnInputConfig.MIN_SPLIT_BYTES.name(), "2m",
        FawnInputConfig.MAX_SPLIT_BYTES.name(), "1m");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FawnInputConfig.minSplitBytes(conf));
    assertMentions(e, "fawn.input.combine.min-split-bytes", "fawn.input.combine.max-split-bytes",
        "2097152", "1048576");
  }

  @Test
  void minSplitBytes_equalToMax_isAllowed() {
    Configuration conf = conf(FawnInputConfig.MIN_SPLIT_BYTES.name(), "1m",
        FawnInputConfig.MAX_SPLIT_BYTES.name(), "1024k");
    assertEquals(1 << 20, FawnInputConfig.minSplitBytes(conf));
  }

  @Test
  void skipCorrupt_unset_isFalse() {
    assertFalse(FawnInputConfig.skipCorrupt(conf()));
  }

  @ParameterizedTest
  @CsvSource({"true, true", "TRUE, true", "' true ', true", "false, false", "False, false"})
  void skipCorrupt_boolean_isParsed(String value, boolean expected) {
    assertEquals(expected, FawnInputConfig.skipCorrupt(conf(FawnInputConfig.SKIP_CORRUPT.name(), value)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"yes", "1", "on", "tru"})
  void skipCorrupt_notABoolean_rejectedNamingKeyAndValue(String value) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> FawnInputConfig.skipCorrupt(conf(FawnInputConfig.SKIP_CORRUPT.name(), value)));
    assertMentions(e, "fawn.input.skip-corrupt", value);
  }
}
