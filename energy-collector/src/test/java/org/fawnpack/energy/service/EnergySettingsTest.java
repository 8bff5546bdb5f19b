package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.energy.EnergyKeys;
import org.junit.jupiter.api.Test;

class EnergySettingsTest {

  private static Configuration conf(String... pairs) {
    Configuration conf = new Configuration(false);
    for (int i = 0; i < pairs.length; i += 2) {
      conf.set(pairs[i], pairs[i + 1]);
    }
    return conf;
  }

  @Test
  void from_unset_givesTheDocumentedDefaults() {
    EnergySettings s = EnergySettings.from(conf());
    assertEquals(List.of(), s.meters());
    assertEquals(1000, s.sampleIntervalMillis());
    assertEquals(500, s.meterTimeoutMillis()); // half the interval
    assertEquals(0, s.port());
    assertTrue(Double.isNaN(s.idleWatts()));
    assertEquals(true, s.historyEnabled());
    assertEquals("/fawn/energy", s.historyDir());
    assertEquals("", s.nodeName());
  }

  @Test
  void from_blankValues_countAsUnset() {
    EnergySettings s = EnergySettings.from(conf(EnergyKeys.METERS.name(), "",
        EnergyKeys.NODE_NAME.name(), " ", EnergyKeys.NODE_IDLE_WATTS.name(), ""));
    assertEquals(List.of(), s.meters());
    assertEquals("", s.nodeName());
    assertTrue(Double.isNaN(s.idleWatts()));
  }

  @Test
  void from_meterList_trimmedAndEmptyNamesDropped() {
    assertEquals(List.of("dc", "pdu"),
        EnergySettings.from(conf(EnergyKeys.METERS.name(), " dc, ,pdu ")).meters());
  }

  @Test
  void from_booleanTypo_isAnErrorNotTheDefault() {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> EnergySettings.from(conf(EnergyKeys.HISTORY_ENABLED.name(), "yes")));
    assertEquals("fawn.energy.history.enabled = yes is invalid: must be true or false",
        e.getMessage());
  }

  @Test
  void from_timeoutNotBelowTheInterval_refusedNamingBothKeys() {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> EnergySettings.from(conf(EnergyKeys.SAMPLE_INTERVAL_MS.name(), "400",
            EnergyKeys.METER_TIMEOUT_MS.name(), "400")));
    assertEquals("fawn.energy.meter-timeout-ms = 400 is invalid: must be below"
        + " fawn.energy.sample-interval-ms = 400", e.getMessage());
  }

  @Test
  void from_outOfRange_refusedNamingTheRange() {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> EnergySettings.from(conf(EnergyKeys.SAMPLE_INTERVAL_MS.name(), "10")));
    assertEquals("fawn.energy.sample-interval-ms = 10 is invalid: must be 50..600000",
        e.getMessage());
  }
}
