package org.fawnpack.energy.meter;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.snmp4j.smi.OID;

/**
 * The vendor OID layouts the {@code snmp-pdu} meter knows by name. Each preset is a table column
 * plus the index settings that complete the instance OID, so a user names an outlet number rather
 * than copying a 17-arc OID out of a MIB.
 *
 * <p>Each column was checked against a compiled copy of the vendor MIB (pysmi output in
 * DotZero24/pysnmp-mibs) and/or against independent tools that read it (Network UPS Tools
 * drivers, Observium/LibreNMS discovery); each constant says which.
 */
enum PduPreset {

  /**
   * PowerNet-MIB rPDU2OutletMeteredStatusPower, watts (Observium and LibreNMS APC discovery read
   * column 7 of rPDU2OutletMeteredStatusTable as watts and skip -1). The index is the table's
   * row index, which equals the outlet number on a single, non-chained Rack PDU 2G.
   */
  APC_OUTLET("apc-outlet", "1.3.6.1.4.1.318.1.1.26.9.4.3.1.7", null,
      NoReadingRule.MINUS_ONE, Index.required("outlet")),

  /**
   * PowerNet-MIB rPDUIdentDevicePowerWatts.0: the whole PDU in watts (NUT apc-pdu-mib.c maps it
   * to input.realpower with factor 1; Observium reads it too).
   */
  APC_DEVICE("apc-device", "1.3.6.1.4.1.318.1.1.12.1.16", null,
      NoReadingRule.MINUS_ONE, Index.fixed(0)),

  /**
   * PDU2-MIB measurementsOutletSensorValue.pduId.outletId.activePower(5), an Unsigned32 to be
   * divided by 10^outletSensorDecimalDigits at the same index (NUT raritan-px2-mib.c reads both
   * columns with these arcs; pduId is 1 on a stand-alone PDU).
   */
  RARITAN_OUTLET("raritan-outlet", "1.3.6.1.4.1.13742.6.5.4.3.1.4",
      "1.3.6.1.4.1.13742.6.3.5.4.1.7", NoReadingRule.NONE,
      Index.optional("pdu", 1, 0, 256), Index.required("outlet"), Index.fixed(5)),

  /** PDU2-MIB measurementsInletSensorValue.pduId.inletId.activePower(5), scaled like outlets. */
  RARITAN_INLET("raritan-inlet", "1.3.6.1.4.1.13742.6.5.2.3.1.4",
      "1.3.6.1.4.1.13742.6.3.3.4.1.7", NoReadingRule.NONE,
      Index.optional("pdu", 1, 0, 256), Index.optional("inlet", 1, 1, 65535), Index.fixed(5)),

  /**
   * Sentry4-MIB st4OutletActivePower.unit.cord.outlet, watts, range -1..10000 with -1 = not
   * available (compiled Sentry4-MIB). Column 7, not 3: column 3 of st4OutletMonitorTable is
   * st4OutletCurrent in hundredths of amps.
   */
  SERVERTECH_OUTLET("servertech-outlet", "1.3.6.1.4.1.1718.4.1.8.3.1.7", null,
      NoReadingRule.MINUS_ONE,
      Index.optional("unit", 1, 1, 255), Index.optional("cord", 1, 1, 255),
      Index.required("outlet")),

  /**
   * Sentry4-MIB st4InputCordActivePower.unit.cord, watts, range -1..50000 with -1 = not
   * available (compiled Sentry4-MIB).
   */
  SERVERTECH_INLET("servertech-inlet", "1.3.6.1.4.1.1718.4.1.3.3.1.3", null,
      NoReadingRule.MINUS_ONE,
      Index.optional("unit", 1, 1, 255), Index.optional("cord", 1, 1, 255)),

  /**
   * EATON-EPDU-MIB outletWatts.strappingIndex.outletIndex, watts (compiled EATON-EPDU-MIB; NUT
   * eaton-pdu-marlin-mib.c). strappingIndex is 0..23 and a stand-alone or daisy-chain host ePDU
   * is 0, hence unit defaults to 0 here, unlike ServerTech. The MIB: "A negative value
   * indicates that this object is not available", so -3 is no reading, not -3 W.
   */
  EATON_OUTLET("eaton-outlet", "1.3.6.1.4.1.534.6.6.7.6.5.1.3", null,
      NoReadingRule.ANY_NEGATIVE, Index.optional("unit", 0, 0, 23), Index.required("outlet")),

  /**
   * EATON-EPDU-MIB inputTotalWatts.strappingIndex.inputIndex: all phases of one input, watts
   * (compiled EATON-EPDU-MIB; NUT reads it as input.realpower). The per-phase inputWatts column
   * (.3.4.1.4) needs a phase index and would under-count a 3-phase unit. Negative values are
   * no reading, as for outletWatts.
   */
  EATON_INLET("eaton-inlet", "1.3.6.1.4.1.534.6.6.7.3.5.1.4", null,
      NoReadingRule.ANY_NEGATIVE,
      Index.optional("unit", 0, 0, 23), Index.optional("inlet", 1, 1, 65535));

  /** Every index setting some preset reads; a preset rejects the ones it does not read. */
  static final List<String> INDEX_SETTINGS = List.of("outlet", "inlet", "unit", "pdu", "cord");

  private final String configName;
  private final OID column;
  private final OID decimalDigitsColumn;
  private final NoReadingRule noReading;
  private final List<Index> index;

  PduPreset(String configName, String column, String decimalDigitsColumn,
      NoReadingRule noReading, Index... index) {
    this.configName = configName;
    this.column = new OID(column);
    this.decimalDigitsColumn = decimalDigitsColumn == null ? null : new OID(decimalDigitsColumn);
    this.noReading = noReading;
    this.index = List.of(index);
  }

  String configName() {
    return configName;
  }

  static PduPreset byName(String key, String value) {
    String wanted = value.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(p -> p.configName.equals(wanted)).findFirst()
        .orElseThrow(() -> new EnergyConfigException(key, "must be one of " + names()
            + ", was '" + value + "'"));
  }

  static String names() {
    return Arrays.stream(values()).map(PduPreset::configName).collect(Collectors.joining(", "));
  }

  /** The read plan for this preset, its index settings taken from {@code spec}. */
  SnmpReadPlan plan(MeterSpec spec, double userScale) {
    rejectUnusedIndexSettings(spec);
    OID suffix = new OID();
    for (Index part : index) {
      suffix.append(part.value(spec, this));
    }
    OID valueOid = new OID(column).append(suffix);
    OID digitsOid = decimalDigitsColumn == null ? null
        : new OID(decimalDigitsColumn).append(suffix);
    return new SnmpReadPlan(valueOid, digitsOid, userScale, noReading);
  }

  // A stray "outlet" on a whole-PDU preset means the user believes they meter one outlet while
  // the meter reads the whole PDU: refuse it rather than silently over-attribute.
  private void rejectUnusedIndexSettings(MeterSpec spec) {
    Set<String> used = index.stream().map(Index::setting).filter(s -> s != null)
        .collect(Collectors.toSet());
    for (String setting : INDEX_SETTINGS) {
      if (!used.contains(setting) && spec.get(setting, null) != null) {
        String hint = setting.equals("inlet") && used.contains("cord")
            ? "; ServerTech calls an inlet a cord: set " + spec.key("cord") + " instead" : "";
        throw new EnergyConfigException(spec.key(setting), "is not used by preset "
            + configName + " (it reads " + (used.isEmpty() ? "no index" : String.join(", ",
                used.stream().sorted().toList())) + ")" + hint);
      }
    }
  }

  /** One arc of the instance index: a fixed arc, or a setting with a default or none. */
  record Index(String setting, Integer defaultValue, int min, int max, int fixed) {

    static Index fixed(int arc) {
      return new Index(null, null, 0, 0, arc);
    }

    static Index required(String setting) {
      return new Index(setting, null, 1, 65535, 0);
    }

    static Index optional(String setting, int defaultValue, int min, int max) {
      return new Index(setting, defaultValue, min, max, 0);
    }

    int value(MeterSpec spec, PduPreset preset) {
      if (setting == null) {
        return fixed;
      }
      if (defaultValue == null && spec.get(setting, null) == null) {
        throw new EnergyConfigException(spec.key(setting), "is required by preset "
            + preset.configName);
      }
      return spec.getInt(setting, defaultValue == null ? 0 : defaultValue, min, max);
    }
  }
}
