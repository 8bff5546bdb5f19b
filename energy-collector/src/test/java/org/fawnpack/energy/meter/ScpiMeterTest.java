package org.fawnpack.energy.meter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fawnpack.conf.InvalidConfigValueException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ScpiMeterTest {
  private FakeScpiSupply supply;

  @BeforeEach
  void startSupply() throws IOException {
    supply = new FakeScpiSupply()
        .answer("MEAS:VOLT?", "+7.00120E+00")
        .answer("MEAS:CURR?", "0.4321")
        .answer("MEAS:POW?", "3.02551");
  }

  @AfterEach
  void stopSupply() throws IOException {
    supply.close();
  }

  private ScpiMeter meter(String... settingsAndValues) {
    String[] all = new String[settingsAndValues.length + 2];
    all[0] = "address";
    all[1] = supply.address();
    System.arraycopy(settingsAndValues, 0, all, 2, settingsAndValues.length);
    return new ScpiMeter(MeterSpecs.of("psu", all));
  }

  @Test
  void read_voltCurrMode_isVoltsTimesAmps() throws IOException {
    try (ScpiMeter meter = meter()) {
      MeterReading reading = meter.read();

      assertEquals(MeterReading.Kind.POWER_WATTS, reading.kind());
      assertEquals(7.00120 * 0.4321, reading.value(), 1e-12);
      assertFalse(reading.estimated());
      assertEquals(List.of("MEAS:VOLT?", "MEAS:CURR?"), supply.received());
    }
  }

  @Test
  void read_powerMode_isThePowerReply() throws IOException {
    try (ScpiMeter meter = meter("mode", "power")) {
      assertEquals(3.02551, meter.read().value(), 1e-12);
      assertEquals(List.of("MEAS:POW?"), supply.received());
    }
  }

  @Test
  void read_valuesChangeBetweenReads_followsTheSupply() throws IOException {
    try (ScpiMeter meter = meter()) {
      meter.read();
      supply.answer("MEAS:VOLT?", "6.95").answer("MEAS:CURR?", "+1.25000E+00");

      assertEquals(6.95 * 1.25, meter.read().value(), 1e-12);
    }
  }

  @Test
  void read_customQueries_areSentVerbatim() throws IOException {
    supply.answer("MEAS:VOLT? CH1", "7.0").answer("MEAS:CURR? CH1", "0.5");
    try (ScpiMeter meter = meter("volt-query", "MEAS:VOLT? CH1", "curr-query", "MEAS:CURR? CH1")) {
      assertEquals(7.0 * 0.5, meter.read().value(), 1e-12);
      assertEquals(List.of("MEAS:VOLT? CH1", "MEAS:CURR? CH1"), supply.received());
    }
  }

  @Test
  void read_customPowerQuery_isSentVerbatim() throws IOException {
    supply.answer("MEASure:POWer? CH2", "12.5");
    try (ScpiMeter meter = meter("mode", "power", "power-query", "MEASure:POWer? CH2")) {
      assertEquals(12.5, meter.read().value(), 1e-12);
      assertEquals(List.of("MEASure:POWer? CH2"), supply.received());
    }
  }

  @Test
  void read_crLfTerminatedReplies_areAccepted() throws IOException {
    supply.answer("MEAS:VOLT?", "7.5\r").answer("MEAS:CURR?", "0.2\r");
    try (ScpiMeter meter = meter()) {
      assertEquals(7.5 * 0.2, meter.read().value(), 1e-12);
    }
  }

  @Test
  void read_manyReads_keepOneConnection() throws IOException {
    try (ScpiMeter meter = meter()) {
      for (int i = 0; i < 5; i++) {
        meter.read();
      }
      assertEquals(1, supply.connectionsAccepted());
      assertEquals(10, supply.received().size());
    }
  }

  @Test
  void read_afterServerDropsConnection_failsOnceThenReconnects() throws IOException {
    try (ScpiMeter meter = meter()) {
      meter.read();
      supply.dropConnections();

      MeterException e = assertThrows(MeterException.class, meter::read);
      assertEquals("disconnected", e.causeKey());
      assertEquals(7.00120 * 0.4321, meter.read().value(), 1e-12);
      assertEquals(2, supply.connectionsAccepted());
    }
  }

  @Test
  void read_serverClosesOnQuery_failsOnceThenReconnects() throws IOException {
    try (ScpiMeter meter = meter()) {
      supply.closeOnNextQuery();

      MeterException e = assertThrows(MeterException.class, meter::read);
      assertEquals("disconnected", e.causeKey());
      assertTrue(e.getMessage().contains("MEAS:VOLT?"), e.getMessage());
      assertEquals(7.00120 * 0.4321, meter.read().value(), 1e-12);
      assertEquals(2, supply.connectionsAccepted());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "ERROR", "abc", "NaN", "Infinity", "9.91E+37", "-9.91E+37",
      "7.0 V", "7,001", "0x1p3", "7d", "-113,\"Undefined header\""})
  void read_replyIsNotANumber_isBadResponseQuotingReplyAndQuery(String reply) throws IOException {
    supply.replyToEverything(reply);
    try (ScpiMeter meter = meter()) {
      MeterException e = assertThrows(MeterException.class, meter::read);

      assertEquals("bad-response", e.causeKey());
      assertTrue(e.getMessage().contains("'" + reply + "'"), e.getMessage());
      assertTrue(e.getMessage().contains("'MEAS:VOLT?'"), e.getMessage());
    }
  }

  @Test
  void read_afterBadResponse_reconnectsAndReadsAgain() throws IOException {
    try (ScpiMeter meter = meter()) {
      supply.replyToEverything("ERROR");
      assertThrows(MeterException.class, meter::read);
      supply.answerNormally();

      assertEquals(7.00120 * 0.4321, meter.read().value(), 1e-12);
      assertEquals(2, supply.connectionsAccepted());
    }
  }

  @Test
  void read_replyLongerThanALine_isBadResponse() throws IOException {
    supply.replyToEverything("7".repeat(ScpiConnection.MAX_LINE_CHARS + 1));
    try (ScpiMeter meter = meter()) {
      MeterException e = assertThrows(MeterException.class, meter::read);
      assertEquals("bad-response", e.causeKey());
    }
  }

  @Test
  void read_stalledSupply_timesOutWithinTimeoutMs() throws IOException {
    supply.stall();
    try (ScpiMeter meter = meter("timeout-ms", "500")) {
      long start = System.nanoTime();
      MeterException e = assertThrows(MeterException.class, meter::read);
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertEquals("timeout", e.causeKey());
      assertTrue(elapsedMs >= 490 && elapsedMs < 1200, "took " + elapsedMs + " ms");
      assertTrue(e.getMessage().contains("500 ms"), e.getMessage());
    }
  }

  @Test
  void read_supplyAnswersOnlyVoltage_timesOutOnCurrentWithinTimeoutMs() throws IOException {
    try (FakeScpiSupply quiet = new FakeScpiSupply().answer("MEAS:VOLT?", "7.0");
        ScpiMeter meter = new ScpiMeter(MeterSpecs.of("psu", "address", quiet.address(),
            "timeout-ms", "500"))) {
      long start = System.nanoTime();
      MeterException e = assertThrows(MeterException.class, meter::read);
      long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertEquals("timeout", e.causeKey());
      assertTrue(e.getMessage().contains("MEAS:CURR?"), e.getMessage());
      assertTrue(elapsedMs >= 490 && elapsedMs < 1200, "took " + elapsedMs + " ms");
    }
  }

  @Test
  void read_nothingListening_isUnreachable() throws IOException {
    try (ScpiMeter meter = new ScpiMeter(MeterSpecs.of("psu", "address",
        MeterSpecs.closedLoopbackPort()))) {
      MeterException e = assertThrows(MeterException.class, meter::read);
      assertEquals("unreachable", e.causeKey());
    }
  }

  @Test
  void read_afterClose_failsWithoutConnecting() throws IOException {
    ScpiMeter meter = meter();
    meter.close();

    assertThrows(MeterException.class, meter::read);
    assertEquals(0, supply.connectionsAccepted());
  }

  @Test
  void name_isTheConfiguredName() {
    assertEquals("psu", meter().name());
  }

  @Test
  void constructor_addressMissing_namesTheKey() {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> new ScpiMeter(MeterSpecs.of("psu")));
    assertEquals("fawn.energy.meter.psu.address", e.key());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "address     | psu.lab:0",
    "address     | psu.lab:65536",
    "address     | psu.lab:scpi",
    "address     | psu.lab:",
    "address     | :5025",
    "address     | [fe80::1",
    "address     | [fe80::1]5025",
    "mode        | watts",
    "volt-query  | MEAS:VOLT",
    "curr-query  | MEAS:CURR",
    "power-query | MEAS:POW",
    "timeout-ms  | 0",
    "timeout-ms  | 60001",
    "timeout-ms  | 1s"
  })
  void constructor_badSetting_namesKeyAndValue(String setting, String value) {
    String[] settings = setting.equals("address")
        ? new String[] {"address", value}
        : new String[] {"address", "psu.lab", setting, value};
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> new ScpiMeter(MeterSpecs.of("psu", settings)));

    assertEquals("fawn.energy.meter.psu." + setting, e.key());
    assertTrue(e.getMessage().contains(value), e.getMessage());
  }

  @Test
  void constructor_queryWithControlCharacter_namesTheKey() {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> new ScpiMeter(MeterSpecs.of("psu", "address", "psu.lab",
            "volt-query", "MEAS:VOLT?\nMEAS:CURR?")));
    assertEquals("fawn.energy.meter.psu.volt-query", e.key());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "psu.lab           | psu.lab   | 5025",
    "psu.lab:5026      | psu.lab   | 5026",
    "10.0.0.7:2000     | 10.0.0.7  | 2000",
    "[fe80::1]:5025    | fe80::1   | 5025",
    "[fe80::1]         | fe80::1   | 5025",
    "fe80::1           | fe80::1   | 5025"
  })
  void addressParse_validAddresses_giveHostAndPort(String value, String host, int port) {
    TcpMeterAddress address = TcpMeterAddress.parse("k", value, ScpiMeter.DEFAULT_PORT);

    assertEquals(host, address.host());
    assertEquals(port, address.port());
    new ScpiMeter(MeterSpecs.of("psu", "address", value)).close();
  }
}
