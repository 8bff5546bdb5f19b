package org.fawnpack.energy.meter;

import static org.junit.jupiter.api.Assertions.assertEquals;
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

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ApcupsdMeterTest {
  // Lines as apcupsd 3.14 formats them: name padded to 8 columns, ": ", value, LF.
  private static final String HEAD = "APC      : 001,036,0875\n";
  private static final String DATE = "DATE     : 2024-05-02 10:31:07 +0200  \n";
  private static final String ONLINE = "STATUS   : ONLINE \n";
  private static final String LOAD = "LOADPCT  :  23.0 Percent\n";
  private static final String NOMPOWER = "NOMPOWER : 865 Watts\n";
  private static final String END = "END APC  : 2024-05-02 10:31:08 +0200  \n";

  private FakeApcupsdNis nis;

  @BeforeEach
  void startNis() throws IOException {
    nis = new FakeApcupsdNis();
  }

  @AfterEach
  void stopNis() throws IOException {
    nis.close();
  }

  private ApcupsdMeter meter(String... settingsAndValues) {
    String[] all = new String[settingsAndValues.length + 2];
    all[0] = "address";
    all[1] = nis.address();
    System.arraycopy(settingsAndValues, 0, all, 2, settingsAndValues.length);
    return new ApcupsdMeter(MeterSpecs.of("ups", all));
  }

  @Test
  void read_loadPctAndNomPower_isTheirProductMarkedEstimated() throws IOException {
    nis.status(HEAD, DATE, ONLINE, LOAD, NOMPOWER, END);
    MeterReading reading = meter().read();

    assertEquals(MeterReading.Kind.POWER_WATTS, reading.kind());
    assertEquals(23.0 / 100 * 865, reading.value(), 1e-9);
    assertTrue(reading.estimated());
    assertEquals(List.of("status"), nis.commands());
  }

  @Test
  void read_twice_usesANewConnectionEachTime() throws IOException {
    nis.status(LOAD, NOMPOWER);
    ApcupsdMeter meter = meter();
    meter.read();
    nis.status("LOADPCT  :  41.5 Percent\n", NOMPOWER);

    assertEquals(41.5 / 100 * 865, meter.read().value(), 1e-9);
    assertEquals(2, nis.connectionsAccepted());
  }

  @Test
  void read_noNomPower_usesNominalWatts() throws IOException {
    nis.status(HEAD, ONLINE, LOAD, END);
    assertEquals(23.0 / 100 * 500, meter("nominal-watts", "500").read().value(), 1e-9);
  }

  @Test
  void read_nominalWattsSet_overridesNomPower() throws IOException {
    nis.status(HEAD, ONLINE, LOAD, NOMPOWER, END);
    assertEquals(23.0 / 100 * 600, meter("nominal-watts", "600").read().value(), 1e-9);
  }

  @Test
  void read_nominalWattsSet_ignoresUnreadableNomPower() throws IOException {
    nis.status(LOAD, "NOMPOWER : N/A\n");
    assertEquals(23.0 / 100 * 600, meter("nominal-watts", "600").read().value(), 1e-9);
  }

  @Test
  void read_noLoadPct_isBadResponseNamingLoadPct() throws IOException {
    nis.status(HEAD, ONLINE, NOMPOWER, END);
    MeterException e = assertThrows(MeterException.class, () -> meter().read());

    assertEquals("bad-response", e.causeKey());
    assertTrue(e.getMessage().contains("LOADPCT"), e.getMessage());
  }

  @Test
  void read_noNomPowerAndNoNominalWatts_isBadResponseNamingBoth() throws IOException {
    nis.status(HEAD, ONLINE, LOAD, END);
    MeterException e = assertThrows(MeterException.class, () -> meter().read());

    assertEquals("bad-response", e.causeKey());
    assertTrue(e.getMessage().contains("NOMPOWER"), e.getMessage());
    assertTrue(e.getMessage().contains("fawn.energy.meter.ups.nominal-watts"), e.getMessage());
  }

  @Test
  void read_nomPowerZero_isBadResponseAskingForNominalWatts() throws IOException {
    nis.status(LOAD, "NOMPOWER : 0 Watts\n");
    MeterException e = assertThrows(MeterException.class, () -> meter().read());

    assertEquals("bad-response", e.causeKey());
    assertTrue(e.getMessage().contains("fawn.energy.meter.ups.nominal-watts"), e.getMessage());
  }

  @Test
  void read_loadPctNotANumber_isBadResponseQuotingIt() throws IOException {
    nis.status("LOADPCT  : N/A\n", NOMPOWER);
    MeterException e = assertThrows(MeterException.class, () -> meter().read());

    assertEquals("bad-response", e.causeKey());
    assertTrue(e.getMessage().contains("'N/A'"), e.getMessage());
  }

  @Test
  void read_upsCommunicationLost_isBadResponse() throws IOException {
    nis.status(HEAD, "STATUS   : COMMLOST \n", LOAD, NOMPOWER, END);
    MeterException e = assertThrows(MeterException.class, () -> meter().read());

    assertEquals("bad-response", e.causeKey());
    assertTrue(e.getMessage().contains("COMMLOST"), e.getMessage());
  }

  @Test
  void read_serverClosesBeforeEndOfStatus_isDisconnected() throws IOException {
    nis.status(LOAD, NOMPOWER);
    nis.truncate();
    MeterException e = assertThrows(MeterException.class, () -> meter().read());

    assertEquals("disconnected", e.causeKey());
  }

  @Test
  void read_stalledServer_timesOutWithinTimeoutMs() throws IOException {
    nis.stall();
    ApcupsdMeter meter = meter("timeout-ms", "500");
    long start = System.nanoTime();
    MeterException e = assertThrows(MeterException.class, meter::read);
    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

    assertEquals("timeout", e.causeKey());
    assertTrue(elapsedMs >= 490 && elapsedMs < 1200, "took " + elapsedMs + " ms");
  }

  @Test
  void read_nothingListening_isUnreachable() throws IOException {
    ApcupsdMeter meter = new ApcupsdMeter(MeterSpecs.of("ups", "address",
        MeterSpecs.closedLoopbackPort()));
    MeterException e = assertThrows(MeterException.class, meter::read);

    assertEquals("unreachable", e.causeKey());
  }

  @Test
  void constructor_noAddress_defaultsToLocalhost3551() {
    ApcupsdMeter meter = new ApcupsdMeter(MeterSpecs.of("ups"));
    assertEquals("ups", meter.name());
    TcpMeterAddress address = TcpMeterAddress.parse("k", ApcupsdMeter.DEFAULT_ADDRESS,
        ApcupsdMeter.DEFAULT_PORT);
    assertEquals("localhost", address.host());
    assertEquals(3551, address.port());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "address       | ups.lab:99999",
    "address       | ups.lab:nis",
    "nominal-watts | -5",
    "nominal-watts | 0",
    "nominal-watts | 865W",
    "nominal-watts | NaN",
    "timeout-ms    | 0",
    "timeout-ms    | fast"
  })
  void constructor_badSetting_namesKeyAndValue(String setting, String value) {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> new ApcupsdMeter(MeterSpecs.of("ups", setting, value)));

    assertEquals("fawn.energy.meter.ups." + setting, e.key());
    assertTrue(e.getMessage().contains(value), e.getMessage());
  }
}
