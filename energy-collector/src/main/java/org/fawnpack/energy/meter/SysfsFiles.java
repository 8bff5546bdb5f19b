package org.fawnpack.energy.meter;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;

/** Reading sysfs attribute files, shared by the hwmon and RAPL meters. */
final class SysfsFiles {

  /** hwmon2 before hwmon10, intel-rapl:0:2 before intel-rapl:0:10: logs list devices in order. */
  static final Comparator<String> NATURAL_ORDER = SysfsFiles::compareNatural;

  private static final int MAX_SHOWN_CHARS = 40;

  private SysfsFiles() {
  }

  /** The integer a sysfs attribute holds ("12345\n"). */
  static long readLong(Path file) throws IOException {
    // ISO-8859-1 decodes any byte, so garbage in the file is reported as a bad value, not as an
    // unreadable file (a strict charset would throw MalformedInputException, an IOException).
    String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).trim();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new MeterException("bad-value", file + " holds '" + printable(text)
          + "', not an integer");
    }
  }

  /** A short text attribute such as {@code name} or {@code power1_label}; null when absent. */
  static String readTextOrNull(Path file) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).trim();
    } catch (IOException e) {
      return null;
    }
  }

  /** The failure of a read that is not a bad value: file gone, I/O error, permission. */
  static MeterException unreadable(Path file, IOException cause) {
    String why = cause instanceof NoSuchFileException ? "no such file (device removed or driver "
        + "unloaded?)" : cause.toString();
    return new MeterException("unreadable", "cannot read " + file + ": " + why, cause);
  }

  /** The content of a bad file, cut short and with control characters made visible. */
  static String printable(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length() && out.length() < MAX_SHOWN_CHARS; i++) {
      char c = text.charAt(i);
      out.append(c < 0x20 || c == 0x7f ? '?' : c);
    }
    return text.length() > MAX_SHOWN_CHARS ? out + "..." : out.toString();
  }

  private static int compareNatural(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      if (Character.isDigit(a.charAt(i)) && Character.isDigit(b.charAt(j))) {
        int startA = i;
        int startB = j;
        while (i < a.length() && Character.isDigit(a.charAt(i))) {
          i++;
        }
        while (j < b.length() && Character.isDigit(b.charAt(j))) {
          j++;
        }
        int byNumber = new BigInteger(a.substring(startA, i))
            .compareTo(new BigInteger(b.substring(startB, j)));
        if (byNumber != 0) {
          return byNumber;
        }
      } else {
        if (a.charAt(i) != b.charAt(j)) {
          return Character.compare(a.charAt(i), b.charAt(j));
        }
        i++;
        j++;
      }
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
