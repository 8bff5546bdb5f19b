package org.fawnpack.energy.report;

import java.util.Locale;

/**
 * How the comparison writes its numbers, the same in text and HTML: thousands separators and a
 * fixed number of decimals per kind of figure; "n/a" for a figure that is missing.
 */
final class Figures {

  static final String NA = "n/a";

  private Figures() {}

  static String seconds(double s) {
    return fixed(s, 1);
  }

  static String joules(double j) {
    return fixed(j, 2);
  }

  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  static String perJoule(double v) {
    return fixed(v, 1);
  }

  /** A ratio to the baseline, e.g. {@code 3.42x}. */
  static String ratio(double r) {
    return Double.isNaN(r) || Double.isInfinite(r) ? NA : fixed(r, 2) + "x";
  }

  private static String fixed(double v, int decimals) {
    return Double.isNaN(v) || Double.isInfinite(v) ? NA
        : String.format(Locale.ROOT, "%,." + decimals + "f", v);
  }
}
