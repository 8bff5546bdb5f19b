package org.fawnpack.jobs;

import java.nio.charset.StandardCharsets;

/**
 * Recognises Hadoop/YARN log4j lines ({@code %d{ISO8601} %p ...}, e.g.
 * {@code 2016-02-01 09:12:33,456 INFO org.foo: msg}, level possibly padded as by {@code %-5p})
 * and reduces each to a compact code for (date, level). Works on the line's UTF-8 bytes so the
 * mapper allocates nothing per line.
 */
final class LogLineParser {

  /** log4j levels, in the order of their codes. */
  static final String[] LEVELS = {"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"};

  private static final byte[][] LEVEL_BYTES = new byte[LEVELS.length][];

  static {
    for (int i = 0; i < LEVELS.length; i++) {
      LEVEL_BYTES[i] = LEVELS[i].getBytes(StandardCharsets.US_ASCII);
    }
  }

  /** Returned for a line that is not a log line (stack trace, blank, other text). */
  static final int NOT_A_LOG_LINE = -1;

  /** Length of {@code yyyy-MM-dd HH:mm:ss,SSS}. */
  private static final int TIMESTAMP_LENGTH = 23;

  private LogLineParser() {}

  /**
   * The (date, level) code of the line, or {@link #NOT_A_LOG_LINE}. The code is
   * {@code yyyyMMdd * 8 + level index}: positive, and decoded by {@link #keyOf}.
   */
  static int parse(byte[] line, int length) {
    if (length < TIMESTAMP_LENGTH + 2 || !isTimestamp(line)) {
      return NOT_A_LOG_LINE;
    }
    int i = TIMESTAMP_LENGTH;
    if (line[i] != ' ') {
      return NOT_A_LOG_LINE;
    }
    while (i < length && line[i] == ' ') {
      i++;
    }
    int level = levelAt(line, i, length);
    if (level < 0) {
      return NOT_A_LOG_LINE;
    }
    int year = digits(line, 0, 4);
    int month = digits(line, 5, 2);
    int day = digits(line, 8, 2);
    if (month < 1 || month > 12 || day < 1 || day > 31) {
      return NOT_A_LOG_LINE;
    }
    return ((year * 100 + month) * 100 + day) * 8 + level;
  }

  /** The job's output key for a code: {@code yyyy-MM-dd LEVEL}. */
  static String keyOf(int code) {
    int date = code / 8;
    return String.format("%04d-%02d-%02d %s", date / 10000, date / 100 % 100, date % 100,
        LEVELS[code % 8]);
  }

  private static boolean isTimestamp(byte[] b) {
    return isDigits(b, 0, 4) && b[4] == '-' && isDigits(b, 5, 2) && b[7] == '-'
        && isDigits(b, 8, 2) && b[10] == ' ' && isDigits(b, 11, 2) && b[13] == ':'
        && isDigits(b, 14, 2) && b[16] == ':' && isDigits(b, 17, 2)
        && (b[19] == ',' || b[19] == '.') && isDigits(b, 20, 3);
  }

  /** Index of the level word at {@code start}, which must end at a space or the line's end. */
  private static int levelAt(byte[] line, int start, int length) {
    for (int level = 0; level < LEVEL_BYTES.length; level++) {
      byte[] word = LEVEL_BYTES[level];
      int end = start + word.length;
      if (end <= length && (end == length || line[end] == ' ')
          && java.util.Arrays.equals(line, start, end, word, 0, word.length)) {
        return level;
      }
    }
    return -1;
  }

  private static boolean isDigits(byte[] b, int start, int count) {
    for (int i = start; i < start + count; i++) {
      if (b[i] < '0' || b[i] > '9') {
        return false;
      }
    }
    return true;
  }

  private static int digits(byte[] b, int start, int count) {
    int value = 0;
    for (int i = start; i < start + count; i++) {
      value = value * 10 + (b[i] - '0');
    }
    return value;
  }
}
