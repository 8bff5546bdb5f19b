package org.fawnpack.energy.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads figures back from the text report. */
final class ReportText {
  private ReportText() {
  }

  /** The value after {@code label :}, whole. */
  static String value(String report, String label) {
    Matcher m = Pattern.compile("(?m)^  " + Pattern.quote(label) + " *: (.*)$").matcher(report);
    assertTrue(m.find(), "no line '" + label + "' in:\n" + report);
    return m.group(1);
  }

  /** The leading number of the value, checking the unit that follows it. */
  static double number(String report, String label, String unit) {
    String value = value(report, label);
    Matcher m = Pattern.compile("^(-?[0-9]+(?:\\.[0-9]+)?) " + Pattern.quote(unit) + "(?: |$)")
        .matcher(value);
    assertTrue(m.find(), "'" + label + "' is '" + value + "', not a number in " + unit);
    return Double.parseDouble(m.group(1));
  }
}
