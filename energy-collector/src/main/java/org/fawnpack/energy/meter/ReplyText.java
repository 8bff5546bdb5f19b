package org.fawnpack.energy.meter;

import java.util.OptionalDouble;
import java.util.regex.Pattern;

/** Reading numbers out of the text replies of TCP meters, and quoting replies in messages. */
final class ReplyText {
  /**
   * A plain decimal with an optional exponent: {@code 7.001}, {@code +7.00120E+00}, {@code 23.0}.
   * Stricter than {@link Double#parseDouble}, which would also take "NaN", "Infinity", "7d" or a
   * hex float, none of which a supply or a UPS means as a reading.
   */
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

  /** Reply quotes in messages are cut here, so a chatty wrong port cannot flood the log. */
  private static final int QUOTE_CHARS = 80;

  private ReplyText() {
  }

  /** The value of {@code text} (trimmed) when it is a finite plain decimal, else empty. */
  static OptionalDouble decimal(String text) {
    String trimmed = text.trim();
    if (!DECIMAL.matcher(trimmed).matches()) {
      return OptionalDouble.empty();
    }
    double value = Double.parseDouble(trimmed);
    return Double.isFinite(value) ? OptionalDouble.of(value) : OptionalDouble.empty();
  }

  /** {@code text} with control characters shown as {@code \xNN}, cut to a readable length. */
  static String printable(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && i < QUOTE_CHARS; i++) {
      char c = text.charAt(i);
      if (c < 0x20 || c >= 0x7f) {
        out.append(String.format("\\x%02x", (int) c & 0xff));
      } else {
        out.append(c);
      }
    }
    if (text.length() > QUOTE_CHARS) {
      out.append("...");
    }
    return out.toString();
  }
}
