package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class LogLineParserTest {

  /** The oracle: log4j's %d{ISO8601} %p prefix, with the level word followed by a space or EOL. */
  private static final Pattern LOG_LINE = Pattern.compile(
      "^(\\d{4})-(\\d{2})-(\\d{2}) \\d{2}:\\d{2}:\\d{2}[,.]\\d{3} +"
          + "(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)( .*)?$",
      Pattern.DOTALL);

  /** "yyyy-MM-dd LEVEL", or null for a line that is not a log line. */
  private static String oracleKey(String line) {
    Matcher m = LOG_LINE.matcher(line);
    if (!m.matches()) {
      return null;
    }
    int month = Integer.parseInt(m.group(2));
    int day = Integer.parseInt(m.group(3));
    if (month < 1 || month > 12 || day < 1 || day > 31) {
      return null;
    }
    return m.group(1) + "-" + m.group(2) + "-" + m.group(3) + " " + m.group(4);
  }

  /** Parses the line from a buffer longer than the line, as a reused Text's backing array is. */
  private static int parse(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    byte[] buffer = Arrays.copyOf(bytes, bytes.length + 40);
    byte[] tail = " INFO tail of an earlier, longer line".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(tail, 0, buffer, bytes.length, tail.length);
    return LogLineParser.parse(buffer, bytes.length);
  }

  private static String key(String line) {
    int code = parse(line);
    return code == LogLineParser.NOT_A_LOG_LINE ? null : LogLineParser.keyOf(code);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "2016-02-01 09:12:33,456 INFO org.foo: msg                        | 2016-02-01 INFO",
    "2016-02-01 09:12:33,456 INFO  org.foo: padded level              | 2016-02-01 INFO",
    "2016-02-01 09:12:33,456 WARN [main] org.x: y                     | 2016-02-01 WARN",
    "2016-02-01 09:12:33.456 ERROR org.foo: dot millis                | 2016-02-01 ERROR",
    "2016-02-01 09:12:33,456 TRACE org.foo: t                         | 2016-02-01 TRACE",
    "2016-02-01 09:12:33,456 DEBUG org.foo: d                         | 2016-02-01 DEBUG",
    "2016-02-01 09:12:33,456 FATAL org.foo: f                         | 2016-02-01 FATAL",
    "1999-12-31 23:59:59,999 WARN                                     | 1999-12-31 WARN",
    "0001-01-01 00:00:00,000 INFO x                                   | 0001-01-01 INFO",
    "9999-12-31 00:00:00,000 FATAL x                                  | 9999-12-31 FATAL",
    "2016-02-01 09:12:33,456    INFO  many spaces before the level    | 2016-02-01 INFO",
  })
  void parse_logLine_keyIsDateAndLevel(String line, String expected) {
    assertEquals(expected, key(line));
    assertEquals(expected, oracleKey(line), "oracle disagrees with the example");
  }

  @Test
  void parse_levelAtEndOfLine_isALogLine() {
    assertEquals("2016-02-01 INFO", key("2016-02-01 09:12:33,456 INFO"));
    assertEquals("2016-02-01 WARN", key("2016-02-01 09:12:33,456 WARN "));
  }

  @Test
  void parse_everyLevel_distinctCodesDecodingToThatLevel() {
    for (String level : LogLineParser.LEVELS) {
      int code = parse("2020-07-15 10:00:00,000 " + level + " msg");
      assertTrue(code > 0, level);
      assertEquals("2020-07-15 " + level, LogLineParser.keyOf(code));
    }
    assertEquals(6, LogLineParser.LEVELS.length);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "\tat org.foo.Bar(Bar.java:1)",
    "Caused by: java.io.IOException: boom",
    "",
    " ",
    "2016-13-01 09:12:33,456 INFO month 13",
    "2016-00-01 09:12:33,456 INFO month 0",
    "2016-02-00 09:12:33,456 INFO day 0",
    "2016-02-32 09:12:33,456 INFO day 32",
    "2016-02-01 09:12:33,456 INFORMATION org.foo: x",
    "2016-02-01 09:12:33,456 WARNING org.foo: x",
    "2016-02-01 09:12:33,456 info org.foo: x",
    "2016-02-01 09:12:33,456 Info org.foo: x",
    "2016-02-01 09:12:33,456 INF",
    "2016-02-01 09:12:33,456 ",
    "2016-02-01 09:12:33,456",
    "2016-02-01 09:12",
    "2016-02-01 09:12:33:456 INFO colon millis",
    "2016-02-01T09:12:33,456 INFO iso T",
    "2016-02-01 09:12:33,45 INFO two-digit millis",
    "2016/02/01 09:12:33,456 INFO slashes",
    "16-02-01 09:12:33,456 INFO short year",
    "2016-02-01 09:12:33,456\tINFO tab",
    "2016-02-01 09:12:33,456 INFO\tmsg after a tab",
    "2016-02-01 09:12:33,456 [main] INFO thread first",
    " 2016-02-01 09:12:33,456 INFO leading space",
    "x2016-02-01 09:12:33,456 INFO",
    "２016-02-01 09:12:33,456 INFO fullwidth digit",
  })
  void parse_notALogLine_isNotALogLine(String line) {
    assertEquals(LogLineParser.NOT_A_LOG_LINE, parse(line), line);
    assertEquals(null, oracleKey(line), "oracle disagrees with the example");
  }

  @Test
  void parse_truncatedLogLine_everyPrefixAgreesWithOracle() {
    String line = "2016-02-01 09:12:33,456 ERROR org.apache.hadoop.Foo: failed";
    for (int length = 0; length <= line.length(); length++) {
      String prefix = line.substring(0, length);
      assertEquals(oracleKey(prefix), key(prefix), "prefix of length " + length);
    }
  }

  @Test
  void parse_lengthShorterThanBuffer_ignoresBytesPastLength() {
    byte[] whole = "2016-02-01 09:12:33,456 INFOX".getBytes(StandardCharsets.US_ASCII);
    // Within the length the level ends at the line's end; the X past it belongs to another line.
    assertEquals("2016-02-01 INFO", LogLineParser.keyOf(LogLineParser.parse(whole, 28)));
    assertEquals(LogLineParser.NOT_A_LOG_LINE, LogLineParser.parse(whole, whole.length));
  }

  @Test
  void keyOf_codes_distinctPerDateAndLevel() {
    int a = parse("2016-02-01 09:12:33,456 INFO x");
    int b = parse("2016-02-02 09:12:33,456 INFO x");
    int c = parse("2016-02-01 23:59:59,999 INFO y");
    int d = parse("2016-02-01 09:12:33,456 WARN x");
    assertEquals(a, c, "same date and level, same code");
    assertNotEquals(a, b);
    assertNotEquals(a, d);
  }

  /**
   * Generated lines: each part is well-formed nine times in ten and a near miss otherwise, so
   * that both log lines and almost-log lines are common.
   */
  private static String randomLine(Random random) {
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "%04d", random.nextInt(10_000)));
    s.append(part(random, new String[] {"-"}, "/", "", "--"));
    s.append(String.format(Locale.ROOT, "%02d", mostly(random) ? 1 + random.nextInt(12)
        : random.nextInt(100)));
    s.append(part(random, new String[] {"-"}, ".", "_"));
    s.append(String.format(Locale.ROOT, "%02d", mostly(random) ? 1 + random.nextInt(31)
        : random.nextInt(100)));
    s.append(part(random, new String[] {" "}, "T", "  ", "\t"));
    s.append(String.format(Locale.ROOT, "%02d:%02d:%02d", random.nextInt(100), random.nextInt(60),
        random.nextInt(60)));
    s.append(part(random, new String[] {",", "."}, ":", "", ";"));
    s.append(String.format(Locale.ROOT, "%03d", random.nextInt(1000)));
    s.append(part(random, new String[] {" ", "  ", "   "}, "", "\t", "_"));
    s.append(part(random, LogLineParser.LEVELS, "INFO\t", "info", "WARNING", "INFORMATION",
        "ERR", "FATALITY", "[main]", "", "Debug"));
    s.append(part(random, new String[] {"", " ", " org.foo.Bar: message", "  [IPC] x: é日😀",
        " [main] org.x: y"}, ":", "X y", "\tz", "S"));
    String line = s.toString();
    // Random damage: truncate, or replace one character.
    switch (random.nextInt(8)) {
      case 0 -> line = line.substring(0, random.nextInt(line.length() + 1));
      case 1 -> {
        int at = random.nextInt(line.length());
        String with = pick(random, "0", "9", "-", ":", " ", ",", ".", "a", "Z", "\t", "é");
        line = line.substring(0, at) + with + line.substring(at + 1);
      }
      default -> { }
    }
    return line;
  }

  private static boolean mostly(Random random) {
    return random.nextInt(10) != 0;
  }

  /** One of the good options nine times in ten, else one of the bad ones. */
  private static String part(Random random, String[] good, String... bad) {
    return mostly(random) ? pick(random, good) : pick(random, bad);
  }

  private static String pick(Random random, String... options) {
    return options[random.nextInt(options.length)];
  }

  @Test
  void parse_manyGeneratedLines_agreesWithRegexOracle() {
    Random random = new Random(20160201);
    int logLines = 0;
    for (int i = 0; i < 200_000; i++) {
      String line = randomLine(random);
      String expected = oracleKey(line);
      assertEquals(expected, key(line), () -> "line: '" + line + "'");
      if (expected != null) {
        logLines++;
      }
    }
    assertTrue(logLines > 10_000 && logLines < 190_000, "generator balance: " + logLines);
  }

  @Test
  void parse_randomBytes_agreesWithRegexOracle() {
    Random random = new Random(77);
    byte[] alphabet = "0123456789-:,. INFOWARNDEBUGTRACEERRORFATAL\t".getBytes(
        StandardCharsets.US_ASCII);
    String valid = "2016-02-01 09:12:33,456 INFO m";
    for (int i = 0; i < 100_000; i++) {
      char[] chars = valid.toCharArray();
      int flips = 1 + random.nextInt(2);
      for (int f = 0; f < flips; f++) {
        chars[random.nextInt(chars.length)] = (char) alphabet[random.nextInt(alphabet.length)];
      }
      String line = new String(chars);
      assertEquals(oracleKey(line), key(line), () -> "line: '" + line + "'");
    }
  }
}
