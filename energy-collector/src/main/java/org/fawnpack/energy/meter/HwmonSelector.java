package org.fawnpack.energy.meter;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One entry of {@code channels}: {@code power<N>}, or {@code in<A>*curr<B>} for a chip that
 * gives voltage and current only (A and B are normally the same rail number).
 */
record HwmonSelector(String text, int power, int voltage, int current) {
  private static final Pattern POWER = Pattern.compile("power(\\d+)");
  private static final Pattern PAIR = Pattern.compile("in(\\d+)\\*curr(\\d+)");
  private static final int NONE = -1;

  static HwmonSelector parse(String text, String key) {
    String compact = text.replaceAll("\\s+", "").toLowerCase(Locale.ROOT);
    try {
      Matcher m = POWER.matcher(compact);
      if (m.matches()) {
        return new HwmonSelector(compact, Integer.parseInt(m.group(1)), NONE, NONE);
      }
      m = PAIR.matcher(compact);
      if (m.matches()) {
        return new HwmonSelector(compact, NONE, Integer.parseInt(m.group(1)),
            Integer.parseInt(m.group(2)));
      }
    } catch (NumberFormatException e) {
      // too many digits for an int: falls through to the same message as any other typo
    }
    throw new EnergyConfigException(key, "entries must look like power1 or in1*curr1, was '"
        + text + "'");
  }

  /** The channel this selector names on {@code chip}, or null when the chip lacks it. */
  HwmonChannel on(HwmonChip chip) {
    if (power != NONE) {
      return chip.hasPower(power) ? chip.power(power) : null;
    }
    return chip.hasPair(voltage, current) ? chip.pair(voltage, current) : null;
  }
}
