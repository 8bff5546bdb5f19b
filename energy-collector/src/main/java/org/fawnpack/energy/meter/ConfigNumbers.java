package org.fawnpack.energy.meter;


/** Reads a whole-number setting within bounds; errors name the key and the value. */
public final class ConfigNumbers {
  private ConfigNumbers() {
  }

  /** {@code value} (null or empty: {@code defaultValue}) parsed and checked against [min, max]. */
  public static int intIn(String key, String value, int defaultValue, int min, int max) {
    if (value == null || value.isEmpty()) {
      return defaultValue;
    }
    int parsed;
    try {
      parsed = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new EnergyConfigException(key, "must be an integer, was '" + value + "'");
    }
    if (parsed < min || parsed > max) {
      throw new EnergyConfigException(key, "must be between " + min + " and " + max + ", was "
          + value);
    }
    return parsed;
  }
}
