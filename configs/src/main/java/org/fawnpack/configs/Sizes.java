package org.fawnpack.configs;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Memory sizes on the command line: {@code 960m}, {@code 960MB}, {@code 4g}, {@code 4096} (MB). */
final class Sizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([mMgGtT]?)[bB]?");

  private Sizes() {}

  static int megabytes(String option, String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(option + " must be a size such as 960m or 4g, was '"
          + text + "'");
    }
    double n = Double.parseDouble(m.group(1));
    double mb = switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "g" -> n * 1024;
      case "t" -> n * 1024 * 1024;
      default -> n;
    };
    if (mb < 1 || mb > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(option + " is out of range: '" + text + "'");
    }
    return (int) Math.round(mb);
  }
}
