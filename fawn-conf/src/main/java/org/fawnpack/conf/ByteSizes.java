package org.fawnpack.conf;

import java.util.Locale;

/**
 * Byte sizes as configuration files write them: {@code 4194304}, {@code 4m}, {@code 256K}. The
 * suffixes are binary (k = 1024) and the same set Hadoop's {@code Configuration.getLongBytes}
 * takes, so a value means the same here and in a Hadoop site file.
 */
final class ByteSizes {

  private static final String SUFFIXES = "kmgtpe";

  private ByteSizes() {}

  /**
   * The bytes {@code text} stands for.
   *
   * @throws IllegalArgumentException when it is not a whole number with an optional suffix, or
   *     overflows a long
   */
  static long parse(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.isEmpty()) {
      throw new IllegalArgumentException("empty");
    }
    int shift = 0;
    int suffix = SUFFIXES.indexOf(lower.charAt(lower.length() - 1));
    if (suffix >= 0) {
      shift = 10 * (suffix + 1);
      lower = lower.substring(0, lower.length() - 1);
    }
    long number = Long.parseLong(lower);
    if (shift > 0 && (number > (Long.MAX_VALUE >> shift) || number < (Long.MIN_VALUE >> shift))) {
      throw new IllegalArgumentException("overflow");
    }
    return number << shift;
  }

  /** The shortest exact spelling: {@code 268435456} is {@code 256m}, {@code 1000} stays. */
  static String spell(long bytes) {
    if (bytes == 0) {
      return "0";
    }
    int suffix = -1;
    long value = bytes;
    while (suffix + 1 < SUFFIXES.length() && value % 1024 == 0) {
      value /= 1024;
      suffix++;
    }
    return suffix < 0 ? Long.toString(value) : value + String.valueOf(SUFFIXES.charAt(suffix));
  }
}
