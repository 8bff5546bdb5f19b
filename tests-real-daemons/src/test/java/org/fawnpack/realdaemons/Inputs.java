package org.fawnpack.realdaemons;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The jobs' inputs, written to HDFS, and their expected answers counted here in plain Java
 * (no job code): what the real-daemon test checks the jobs' outputs against.
 */
final class Inputs {
  private static final String[] LEVELS = {"DEBUG", "INFO", "WARN", "ERROR"};
  private static final Pattern LOG_LINE = Pattern.compile(
      "^(\\d{4}-\\d{2}-\\d{2}) \\d{2}:\\d{2}:\\d{2},\\d{3} +(DEBUG|INFO|WARN|ERROR) .*$");

  private Inputs() {}

  /** Text files of words from a small vocabulary; returns the word counts. */
  static Map<String, Long> text(FileSystem fs, String dir, int files, int lines)
      throws IOException {
    Random random = new Random(36);
    List<String> all = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < lines; l++) {
        for (int w = 0; w < 8; w++) {
          text.append("w").append(random.nextInt(400)).append(w == 7 ? "\n" : " ");
        }
      }
      write(fs, new Path(dir, "part-" + f + ".txt"), text.toString());
      all.add(text.toString());
    }
    Map<String, Long> counts = new HashMap<>();
    for (String text : all) {
      for (String word : text.split("\\s+")) {
        if (!word.isEmpty()) {
          counts.merge(word, 1L, Long::sum);
        }
      }
    }
    return counts;
  }

  /** Daemon-style log files with stack-trace lines; returns "yyyy-MM-dd LEVEL" counts. */
  static Map<String, Long> logs(FileSystem fs, String dir, int files, int lines)
      throws IOException {
    Random random = new Random(3636);
    Map<String, Long> counts = new HashMap<>();
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < lines; l++) {
        String line = String.format(java.util.Locale.ROOT,
            "2026-11-%02d %02d:%02d:%02d,%03d %s org.fawnpack.X: event %d", 20 + random.nextInt(5),
            random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1000),
            LEVELS[random.nextInt(LEVELS.length)], l);
        text.append(line).append('\n');
        if (random.nextInt(10) == 0) {
          text.append("\tat org.fawnpack.X.run(X.java:").append(l).append(")\n");
        }
      }
      write(fs, new Path(dir, "log-" + f + ".log"), text.toString());
      for (String line : text.toString().split("\n")) {
        Matcher m = LOG_LINE.matcher(line);
        if (m.matches()) {
          counts.merge(m.group(1) + " " + m.group(2), 1L, Long::sum);
        }
      }
    }
    return counts;
  }

  /**
   * Files of {@code key TAB value} lines, keys under three prefixes ("sensor/", "node/", none);
   * returns what they hold (each key once).
   */
  static Map<String, String> keyValues(FileSystem fs, String dir, int files, int lines)
      throws IOException {
    Map<String, String> written = new TreeMap<>();
    for (int f = 0; f < files; f++) {
      StringBuilder text = new StringBuilder();
      for (int l = 0; l < lines; l++) {
        int i = f * lines + l;
        String key = (i % 3 == 0 ? "sensor/" : i % 3 == 1 ? "node/" : "") + "k" + i;
        String value = "reading " + (i * 7919 % 1000);
        text.append(key).append('\t').append(value).append('\n');
        written.put(key, value);
      }
      write(fs, new Path(dir, "kv-" + f + ".tsv"), text.toString());
    }
    return written;
  }

  /**
   * kvcount's lines for these entries: per prefix (the key up to its first '/', or "" without
   * one), {@code prefix TAB records TAB key and value bytes}, sorted.
   */
  static List<String> prefixCounts(Map<String, String> entries) {
    Map<String, long[]> counts = new TreeMap<>();
    entries.forEach((k, v) -> {
      int at = k.indexOf('/');
      long[] c = counts.computeIfAbsent(at < 0 ? "" : k.substring(0, at), p -> new long[2]);
      c[0]++;
      c[1] += k.getBytes(StandardCharsets.UTF_8).length
          + v.getBytes(StandardCharsets.UTF_8).length;
    });
    List<String> lines = new ArrayList<>();
    counts.forEach((p, c) -> lines.add(p + "\t" + c[0] + "\t" + c[1]));
    return lines.stream().sorted().toList();
  }

  private static void write(FileSystem fs, Path file, String text) throws IOException {
    try (OutputStream out = fs.create(file)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The {@code key TAB count} lines of every part file. */
  static Map<String, Long> counts(FileSystem fs, String dir) throws IOException {
    Map<String, Long> counts = new HashMap<>();
    for (String line : lines(fs, dir)) {
      int tab = line.lastIndexOf('\t');
      counts.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)));
    }
    return counts;
  }

  /** Every line of the part files, in part order. */
  static List<String> lines(FileSystem fs, String dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (FileStatus part : parts(fs, dir)) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(part.getPath()),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = in.readLine()) != null) {
          lines.add(line);
        }
      }
    }
    return lines;
  }

  static FileStatus[] parts(FileSystem fs, String dir) throws IOException {
    FileStatus[] parts = fs.listStatus(new Path(dir), p -> p.getName().startsWith("part-"));
    java.util.Arrays.sort(parts);
    return parts;
  }
}
