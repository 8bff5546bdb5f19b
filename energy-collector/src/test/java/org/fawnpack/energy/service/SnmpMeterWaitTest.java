package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.energy.EnergyKeys;
import org.fawnpack.energy.meter.MeterSpec;
import org.fawnpack.energy.meter.PowerMeter;
import org.junit.jupiter.api.Test;

/**
 * An snmp-pdu meter's own timeouts against the collector's wait, both from their real defaults
 * (EnergySettings, SnmpPduMeter). Nothing here opens a socket: the meter connects on first read.
 */
class SnmpMeterWaitTest {
  private static final String METER = "fawn.energy.meter.pdu.";

  private static Configuration pduConf() {
    Configuration conf = new Configuration(false);
    conf.set("fawn.energy.meters", "pdu");
    conf.set(METER + "type", "snmp-pdu");
    conf.set(METER + "address", "127.0.0.1:16161");
    conf.set(METER + "preset", "apc-device");
    return conf;
  }

  private static PowerMeter create(Configuration conf) throws IOException {
    EnergySettings settings = EnergySettings.from(conf);
    return new MeterFactory(null).create(new MeterSpec("pdu", conf,
        settings.meterTimeoutMillis()));
  }

  @Test
  void defaults_fitTheDefaultMeterTimeout() throws IOException {
    Configuration conf = pduConf();

    assertEquals(500, EnergySettings.from(conf).meterTimeoutMillis());
    create(conf).close();
  }

  @Test
  void timeoutOfTheOldDefault_isRefusedAtStartNamingBothKeys() {
    Configuration conf = pduConf();
    conf.set(METER + "timeout-ms", "1000");

    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> create(conf));
    assertEquals(METER + "timeout-ms", e.key());
    assertTrue(e.getMessage().contains(EnergyKeys.METER_TIMEOUT_MS.name() + " (500 ms)"),
        e.getMessage());
  }

  @Test
  void fasterSampling_needsShorterSnmpTimeouts() throws IOException {
    Configuration conf = pduConf();
    conf.set(EnergyKeys.SAMPLE_INTERVAL_MS.name(), "400");

    // The wait is then 200 ms: the default 200 ms x 2 tries does not fit, 90 ms x 2 does.
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> create(conf));
    assertTrue(e.getMessage().contains("(200 ms)"), e.getMessage());
    conf.set(METER + "timeout-ms", "90");
    create(conf).close();
  }
}
