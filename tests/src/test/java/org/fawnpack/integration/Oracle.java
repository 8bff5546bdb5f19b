package org.fawnpack.integration;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.LocatedFileStatus;

/**
 * Plain-Java answers for the jobs, computed from the same files with no Hadoop job code:
 * what the tests compare job outputs against.
 */
final class Oracle {

  /** A log4j line as the paper's logcount sees it, written independently of the job's parser. */
  private static final Pattern LOG_LINE = Pattern.compile(
      "^(\\d{4})-(\\d{2})-(\\d{2}) \\d{2}:\\d{2}:\\d{2}[,.]\\d{3} +"
          + "(TRACE|DEBUG|INFO|WARN|ERROR|FATAL)(?: .*)?$");

  private Oracle() {}

  /** Word counts over every visible file under dir, split like StringTokenizer. */
  static Map<String, Long> wordCounts(FileSystem fs, Path dir) throws IOException {
    Map<String, Long> counts = new HashMap<>();
    forEachLine(fs, dir, line -> {
      StringTokenizer tokens = new StringTokenizer(line);
      while (tokens.hasMoreTokens()) {
        counts.merge(tokens.nextToken(), 1L, Long::sum);
      }
    });
    return counts;
  }

  /** "yyyy-MM-dd LEVEL" counts, plus the number of lines that are not log lines under "". */
  static Map<String, Long> logCounts(FileSystem fs, Path dir) throws IOException {
    Map<String, Long> counts = new HashMap<>();
    forEachLine(fs, dir, line -> {
      Matcher m = LOG_LINE.matcher(line);
      int month = m.matches() ? Integer.parseInt(m.group(2)) : 0;
      int day = m.matches() ? Integer.parseInt(m.group(3)) : 0;
      if (month >= 1 && month <= 12 && day >= 1 && day <= 31) {
        counts.merge(m.group(1) + "-" + m.group(2) + "-" + m.group(3) + " " + m.group(4), 1L,
            Long::sum);
      } else {
        counts.merge("", 1L, Long::sum);
      }
    });
    return counts;
  }

  private interface LineConsumer {
    void accept(String line);
  }

  private static void forEachLine(FileSystem fs, Path dir, LineConsumer consumer)
      throws IOException {
    RemoteIterator<LocatedFileStatus> files = fs.listFiles(dir, true);
    while (files.hasNext()) {
      Path file = files.next().getPath();
      if (file.getName().startsWith("_") || file.getName().startsWith(".")) {
        continue;
      }
      try (BufferedReader in = reader(fs, file)) {
        String line;
        while ((line = in.readLine()) != null) {
          consumer.accept(line);
        }
      }
    }
  }

  private static BufferedReader reader(FileSystem fs, Path file) throws IOException {
    return new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8));
  }
}
