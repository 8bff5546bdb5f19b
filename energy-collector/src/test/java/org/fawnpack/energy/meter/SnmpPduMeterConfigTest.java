package org.fawnpack.energy.meter;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.InvalidConfigValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Configuration is validated in the constructor, before any socket is opened, and every error
 * names the full key. No agent runs here: nothing in these tests may reach the network.
 */
class SnmpPduMeterConfigTest {
  private static final String PREFIX = "fawn.energy.meter.rack7.";
  private static final String PASS_A = "first-pass-phrase";
  private static final String PASS_B = "second-pass-phrase";

  @TempDir
  Path dir;

  static Stream<Arguments> badSettings() {
    return Stream.of(
        // setting=value pairs on top of a valid v2c apc-device meter; the key expected in error
        bad("address", "address="),
        bad("address", "address=pdu7:notaport"),
        bad("address", "address=pdu7:70000"),
        bad("address", "address=[::1"),
        bad("address", "address=pdu 7"),
        bad("preset", "preset=apc-outlets"),
        bad("preset", "preset="),
        bad("oid", "oid=.1.3.6.1.4.1.318.1.1.12.1.16.0"), // next to the preset: both set
        bad("outlet", "preset=apc-outlet"),
        bad("outlet", "outlet=3"),
        bad("outlet", "preset=raritan-outlet", "outlet=0"),
        bad("outlet", "preset=eaton-outlet", "outlet=two"),
        bad("inlet", "preset=servertech-inlet", "inlet=2"),
        bad("cord", "preset=eaton-inlet", "cord=1"),
        bad("unit", "preset=eaton-inlet", "unit=24"),
        bad("pdu", "preset=servertech-outlet", "outlet=1", "pdu=1"),
        bad("scale", "scale=0"),
        bad("scale", "scale=-1"),
        bad("scale", "scale=ten"),
        bad("version", "version=1"),
        bad("user", "user=fawn"),
        bad("auth-protocol", "auth-protocol=SHA"),
        bad("timeout-ms", "timeout-ms=5"),
        bad("retries", "retries=11"));
  }

  private static Arguments bad(String expectedSetting, String... settings) {
    return Arguments.of(expectedSetting, settings);
  }

  @ParameterizedTest(name = "{1} -> {0}")
  @MethodSource("badSettings")
  void create_badSetting_namedByKey(String expectedSetting, String[] settings) {
    Configuration conf = valid();
    for (String setting : settings) {
      String[] kv = setting.split("=", 2);
      conf.set(PREFIX + kv[0], kv[1]);
    }

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + expectedSetting, e.key(), e.getMessage());
    assertTrue(e.getMessage().startsWith(PREFIX + expectedSetting), e.getMessage());
  }

  @Test
  void timeoutTimesTries_overTheCollectorsWait_isRefusedNamingBothKeys() {
    Configuration conf = valid();
    conf.set(PREFIX + "timeout-ms", "300");
    conf.set(PREFIX + "retries", "1");

    // 300 ms x 2 tries = 600 ms > the collector's 500 ms wait.
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> new SnmpPduMeter(new MeterSpec("rack7", conf, 500)));
    assertEquals(PREFIX + "timeout-ms", e.key(), e.getMessage());
    assertTrue(e.getMessage().contains("fawn.energy.meter-timeout-ms"), e.getMessage());
    assertTrue(e.getMessage().contains(PREFIX + "retries"), e.getMessage());
    assertTrue(e.getMessage().contains("600 ms"), e.getMessage());
  }

  @Test
  void timeoutTimesTries_equalToTheCollectorsWait_isAccepted() throws IOException {
    Configuration conf = valid();
    conf.set(PREFIX + "timeout-ms", "100");
    conf.set(PREFIX + "retries", "4");

    new SnmpPduMeter(new MeterSpec("rack7", conf, 500)).close();
  }

  @Test
  void defaults_fitTheCollectorsDefaultWait() throws IOException {
    // docs/energy.md: fawn.energy.meter-timeout-ms defaults to half the 1000 ms interval.
    new SnmpPduMeter(new MeterSpec("rack7", valid(), 500)).close();
  }

  @Test
  void timeouts_areNotCheckedWithoutACollectorWait() throws IOException {
    Configuration conf = valid();
    conf.set(PREFIX + "timeout-ms", "60000");
    conf.set(PREFIX + "retries", "10");

    new SnmpPduMeter(new MeterSpec("rack7", conf)).close();
  }

  @Test
  void create_missingAddress_named() {
    Configuration conf = valid();
    conf.unset(PREFIX + "address");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "address", e.key());
  }

  @Test
  void create_unknownPreset_listsKnownOnes() {
    Configuration conf = valid();
    conf.set(PREFIX + "preset", "cyberpower-outlet");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "preset", e.key());
    assertTrue(e.getMessage().contains("cyberpower-outlet"), e.getMessage());
    for (String preset : new String[] {"apc-outlet", "apc-device", "raritan-outlet",
        "raritan-inlet", "servertech-outlet", "servertech-inlet", "eaton-outlet",
        "eaton-inlet"}) {
      assertTrue(e.getMessage().contains(preset), e.getMessage());
    }
  }

  @Test
  void create_neitherPresetNorOid_namesPreset() {
    Configuration conf = valid();
    conf.unset(PREFIX + "preset");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "preset", e.key());
  }

  @Test
  void create_nonNumericOid_refused() {
    Configuration conf = valid();
    conf.unset(PREFIX + "preset");
    conf.set(PREFIX + "oid", "PowerNet-MIB::rPDUIdentDevicePowerWatts.0");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "oid", e.key());
  }

  @Test
  void create_indexWithRawOid_refused() {
    Configuration conf = valid();
    conf.unset(PREFIX + "preset");
    conf.set(PREFIX + "oid", "1.3.6.1.4.1.318.1.1.26.9.4.3.1.7.3");
    conf.set(PREFIX + "outlet", "3");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "outlet", e.key());
  }

  @ParameterizedTest
  @ValueSource(strings = {"pdu7.example.org", "pdu7.example.org:1161", "192.0.2.7",
      "192.0.2.7:161", "[2001:db8::7]:1161", "2001:db8::7"})
  void create_addressForms_parsed(String address) throws IOException {
    Configuration conf = valid();
    conf.set(PREFIX + "address", address);

    // No read: construction must neither resolve nor contact the host.
    assertDoesNotThrow(() -> meter(conf).close());
  }

  @ParameterizedTest
  @ValueSource(strings = {"apc-outlet", "apc-device", "raritan-outlet", "raritan-inlet",
      "servertech-outlet", "servertech-inlet", "eaton-outlet", "eaton-inlet"})
  void create_everyPreset_constructs(String preset) throws IOException {
    Configuration conf = valid();
    conf.set(PREFIX + "preset", preset);
    if (preset.endsWith("-outlet")) {
      conf.set(PREFIX + "outlet", "1");
    }

    assertDoesNotThrow(() -> meter(conf).close());
  }

  @ParameterizedTest
  @ValueSource(strings = {"MD5", "SHA", "sha-1", "SHA-224", "sha256", "SHA-384", "SHA_512"})
  void create_everyAuthProtocolName_accepted(String name) throws IOException {
    Configuration conf = v3();
    conf.set(PREFIX + "auth-protocol", name);
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A,
        PREFIX + "priv-passphrase", PASS_B);

    assertDoesNotThrow(() -> meter(conf).close());
  }

  @ParameterizedTest
  @ValueSource(strings = {"AES", "AES128", "aes-192", "AES256", "DES"})
  void create_everyPrivProtocolName_accepted(String name) throws IOException {
    Configuration conf = v3();
    conf.set(PREFIX + "priv-protocol", name);
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A,
        PREFIX + "priv-passphrase", PASS_B);

    assertDoesNotThrow(() -> meter(conf).close());
  }

  @Test
  void create_v3WithoutUser_namesUser() {
    Configuration conf = v3();
    conf.unset(PREFIX + "user");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "user", e.key());
  }

  @Test
  void create_v3NoAuthNoPriv_needsNoSecrets() {
    assertDoesNotThrow(() -> meter(v3()).close());
  }

  @Test
  void create_communityWithV3_refused() {
    Configuration conf = v3();
    conf.set(PREFIX + "community", "public");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "community", e.key());
  }

  @Test
  void create_unknownAuthProtocol_named() throws IOException {
    Configuration conf = v3();
    conf.set(PREFIX + "auth-protocol", "SHA3-256");
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A);

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "auth-protocol", e.key());
  }

  @Test
  void create_unknownPrivProtocol_named() throws IOException {
    Configuration conf = v3();
    conf.set(PREFIX + "priv-protocol", "3DES-EDE");
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A,
        PREFIX + "priv-passphrase", PASS_B);

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "priv-protocol", e.key());
  }

  @Test
  void create_privWithoutAuth_namesAuthPassphrase() throws IOException {
    Configuration conf = v3();
    TestCredentialStore.store(conf, dir, PREFIX + "priv-passphrase", PASS_B);

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "auth-passphrase", e.key());
  }

  @Test
  void create_privProtocolWithoutPassphrase_namesPrivPassphrase() throws IOException {
    Configuration conf = v3();
    conf.set(PREFIX + "priv-protocol", "AES256");
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A);

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "priv-passphrase", e.key());
  }

  @Test
  void create_privProtocolNone_authNoPriv() throws IOException {
    Configuration conf = v3();
    conf.set(PREFIX + "priv-protocol", "none");
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A);

    assertDoesNotThrow(() -> meter(conf).close());
  }

  @Test
  void create_privProtocolNoneWithPrivPassphrase_contradiction() throws IOException {
    Configuration conf = v3();
    conf.set(PREFIX + "priv-protocol", "none");
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A,
        PREFIX + "priv-passphrase", PASS_B);

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "priv-protocol", e.key());
  }

  @Test
  void create_shortPassphrase_refusedWithoutEchoingIt() throws IOException {
    Configuration conf = v3();
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", "short7!");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "auth-passphrase", e.key());
    assertFalse(e.getMessage().contains("short7!"), e.getMessage());
  }

  @Test
  void create_plainTextPrivPassphrase_refused() throws IOException {
    Configuration conf = v3();
    TestCredentialStore.store(conf, dir, PREFIX + "auth-passphrase", PASS_A);
    conf.set(PREFIX + "priv-passphrase", PASS_B);

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter(conf));
    assertEquals(PREFIX + "priv-passphrase", e.key());
    assertFalse(e.getMessage().contains(PASS_B), e.getMessage());
  }

  private static Configuration valid() {
    Configuration conf = new Configuration(false);
    conf.set(PREFIX + "type", SnmpPduMeter.TYPE);
    conf.set(PREFIX + "address", "192.0.2.7");
    conf.set(PREFIX + "preset", "apc-device");
    return conf;
  }

  private static Configuration v3() {
    Configuration conf = valid();
    conf.set(PREFIX + "version", "3");
    conf.set(PREFIX + "user", "fawn");
    return conf;
  }

  private static SnmpPduMeter meter(Configuration conf) {
    return new SnmpPduMeter(new MeterSpec("rack7", conf));
  }
}
