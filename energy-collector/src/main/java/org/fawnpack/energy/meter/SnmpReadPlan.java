package org.fawnpack.energy.meter;

import java.util.regex.Pattern;
import org.snmp4j.smi.OID;

/**
 * What one read fetches: the instance OID holding the power, an optional OID holding the number
 * of decimal digits that value carries (Raritan), the multiplier from the raw integer to watts,
 * and how the vendor's MIB marks "no reading".
 */
record SnmpReadPlan(OID valueOid, OID decimalDigitsOid, double scale, NoReadingRule noReading) {

  private static final Pattern NUMERIC_OID = Pattern.compile("\\.?[0-9]+(\\.[0-9]+)+");

  /** From {@code preset} (with its index settings) or a raw {@code oid}; exactly one of them. */
  static SnmpReadPlan fromSpec(MeterSpec spec) {
    String preset = spec.get("preset", null);
    String oid = spec.get("oid", null);
    double scale = scale(spec);
    if (preset != null && oid != null) {
      throw new EnergyConfigException(spec.key("oid"), "cannot be combined with "
          + spec.key("preset") + "; set one of them");
    }
    if (preset != null) {
      return PduPreset.byName(spec.key("preset"), preset).plan(spec, scale);
    }
    if (oid == null) {
      throw new EnergyConfigException(spec.key("preset"), "is required for meter '"
          + spec.name() + "' (type snmp-pdu): name a preset (" + PduPreset.names() + ") or set "
          + spec.key("oid") + " to a numeric OID");
    }
    for (String setting : PduPreset.INDEX_SETTINGS) {
      if (spec.get(setting, null) != null) {
        throw new EnergyConfigException(spec.key(setting), "is only used with a preset; "
            + spec.key("oid") + " must already name the full instance");
      }
    }
    return new SnmpReadPlan(parseOid(spec.key("oid"), oid), null, scale, NoReadingRule.NONE);
  }

  private static double scale(MeterSpec spec) {
    double scale = spec.getDouble("scale", 1.0);
    if (scale <= 0) {
      throw new EnergyConfigException(spec.key("scale"), "must be greater than 0, was '"
          + spec.get("scale", "") + "'");
    }
    return scale;
  }

  private static OID parseOid(String key, String value) {
    if (!NUMERIC_OID.matcher(value).matches()) {
      throw new EnergyConfigException(key, "must be a numeric OID such as "
          + ".1.3.6.1.4.1.318.1.1.12.1.16.0 (MIB names are not resolved), was '" + value + "'");
    }
    String dotted = value.startsWith(".") ? value.substring(1) : value;
    for (String arc : dotted.split("\\.")) {
      // Sub-identifiers are unsigned 32-bit; anything longer cannot be encoded.
      if (arc.length() > 10 || Long.parseLong(arc) > 0xFFFF_FFFFL) {
        throw new EnergyConfigException(key, "has a sub-identifier out of range (" + arc
            + "), was '" + value + "'");
      }
    }
    return new OID(dotted);
  }
}
