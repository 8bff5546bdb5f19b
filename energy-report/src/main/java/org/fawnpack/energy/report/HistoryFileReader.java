package org.fawnpack.energy.report;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.fawnpack.energy.HistoryFormat;

/**
 * Reads the energy collector's per-application, per-node history files
 * ({@code <fawn.energy.history.dir>/<applicationId>/<node>.csv}, version 1). Strict: a line that
 * is not a well-formed record is an {@link IOException} naming the file and the line number, so a
 * damaged file never yields quietly wrong joules.
 */
public final class HistoryFileReader {
  static final String MAGIC = HistoryFormat.MAGIC;
  private static final Pattern HEADER_FIELD = Pattern.compile("(\\w+)=(\\S*)");

  private HistoryFileReader() {
  }

  /** The history directory the configuration names. */
  public static String historyDir(Configuration conf) {
    return HistoryFormat.historyDir(conf);
  }

  /** {@code <historyDir>/<applicationId>}, qualified against the directory's file system. */
  public static Path applicationDir(Configuration conf, String historyDir, String applicationId)
      throws IOException {
    return HistoryFormat.applicationDir(conf, historyDir, applicationId);
  }

  /**
   * Every {@code .csv} file in the application's directory, parsed, in file-name order; empty
   * when the directory does not exist (the collector writes it a few seconds after the
   * application ends, and only on nodes where one of its containers ran).
   */
  public static Optional<List<NodeHistory>> readApplication(Configuration conf, Path appDir)
      throws IOException {
    FileSystem fs = appDir.getFileSystem(conf);
    FileStatus[] statuses;
    try {
      statuses = fs.listStatus(appDir);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    List<FileStatus> files = new ArrayList<>(Arrays.asList(statuses));
    files.removeIf(s -> !s.isFile() || !s.getPath().getName().endsWith(".csv"));
    files.sort(Comparator.comparing(s -> s.getPath().getName()));
    List<NodeHistory> result = new ArrayList<>();
    for (FileStatus status : files) {
      result.add(read(fs, status.getPath()));
    }
    return Optional.of(result);
  }

  /** Reads one file from any Hadoop file system. */
  public static NodeHistory read(FileSystem fs, Path file) throws IOException {
    try (FSDataInputStream in = fs.open(file)) {
      return parse(new InputStreamReader(in, StandardCharsets.UTF_8), file.getName(),
          file.toString());
    }
  }

  /**
   * Parses one file.
   *
   * @param fileName the file's name, for the node name when the header lacks one
   * @param where how to name the file in error messages (its full path)
   */
  public static NodeHistory parse(Reader reader, String fileName, String where)
      throws IOException {
    BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
    String node = null;
    String applicationId = null;
    int intervalMillis = 0;
    String meters = null;
    boolean estimated = false;
    boolean magic = false;
    List<NodeHistory.Sample> samples = new ArrayList<>();
    List<NodeHistory.Container> containers = new ArrayList<>();
    int lineNumber = 0;
    String line;
    while ((line = in.readLine()) != null) {
      lineNumber++;
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      if (lineNumber == 1) {
        if (!line.equals(MAGIC)) {
          throw damaged(where, lineNumber, "not a fawn-energy history v1 file (first line is not '"
              + MAGIC + "')");
        }
        magic = true;
        continue;
      }
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("#")) {
        String comment = line.substring(1).trim();
        if (comment.startsWith("node=")) {
          Matcher m = HEADER_FIELD.matcher(comment);
          while (m.find()) {
            String value = m.group(2);
            switch (m.group(1)) {
              case "node" -> node = value;
              case "application" -> applicationId = value;
              case "interval_ms" -> intervalMillis = (int) parseLong(value, where, lineNumber,
                  "interval_ms");
              case "meters" -> meters = value;
              case "estimated" -> estimated = parseBoolean(value, where, lineNumber, "estimated");
              default -> {
                // a later version's extra field: ignore
              }
            }
          }
        }
        continue;
      }
      String[] f = line.split(",", -1);
      switch (f[0]) {
        case HistoryFormat.SAMPLE -> samples.add(sample(f, where, lineNumber, "application uJ"));
        case HistoryFormat.CONTAINER -> {
          expectFields(f, HistoryFormat.CONTAINER_FIELDS, where, lineNumber,
              HistoryFormat.CONTAINER_FORM);
          if (f[1].isBlank()) {
            throw damaged(where, lineNumber, "container id is empty");
          }
          containers.add(new NodeHistory.Container(f[1].trim(), f[2].trim(),
              (int) parseLong(f[3], where, lineNumber, "vcores"),
              parseLong(f[4], where, lineNumber, "memory MB"),
              parseLong(f[5], where, lineNumber, "start ms"),
              parseLong(f[6], where, lineNumber, "stop ms"),
              parseLong(f[7], where, lineNumber, "energy uJ"),
              parseLong(f[8], where, lineNumber, "idle uJ"),
              parseLong(f[9], where, lineNumber, "samples"),
              parseLong(f[10], where, lineNumber, "gaps"),
              parseBoolean(f[11].trim(), where, lineNumber, "estimated")));
        }
        default -> throw damaged(where, lineNumber, "unknown record '" + abbreviate(f[0])
            + "' (expected sample or container)");
      }
    }
    if (!magic) {
      throw new IOException(where + ": empty file (no '" + MAGIC + "' line)");
    }
    if (node == null || node.isEmpty()) {
      node = fileName.endsWith(".csv") ? fileName.substring(0, fileName.length() - 4) : fileName;
    }
    return new NodeHistory(fileName, node, applicationId, intervalMillis, meters, estimated,
        samples, containers);
  }

  /**
   * One sample record, split at its commas; {@code share} names its fifth field (the
   * application's energy in an application's file, the containers' in a node's).
   */
  static NodeHistory.Sample sample(String[] f, String where, int line, String share)
      throws IOException {
    expectFields(f, HistoryFormat.SAMPLE_FIELDS, where, line, HistoryFormat.SAMPLE_FORM);
    double watts = parseDouble(f[2], where, line, "watts");
    String gap = f[5].trim();
    if (!gap.equals("0") && !gap.equals("1")) {
      throw damaged(where, line, "gap must be 0 or 1, not '" + gap + "'");
    }
    return new NodeHistory.Sample(parseLong(f[1], where, line, "end ms"), watts,
        parseLong(f[3], where, line, "node uJ"), parseLong(f[4], where, line, share),
        gap.equals("1"));
  }

  private static void expectFields(String[] f, int n, String where, int line, String form)
      throws IOException {
    if (f.length != n) {
      throw damaged(where, line, f.length + " fields where " + n + " were expected (" + form + ")");
    }
  }

  static long parseLong(String s, String where, int line, String what)
      throws IOException {
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw damaged(where, line, what + " is not an integer: '" + abbreviate(s) + "'");
    }
  }

  private static double parseDouble(String s, String where, int line, String what)
      throws IOException {
    try {
      double value = Double.parseDouble(s.trim());
      if (Double.isNaN(value) || Double.isInfinite(value)) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw damaged(where, line, what + " is not a number: '" + abbreviate(s) + "'");
    }
  }

  static boolean parseBoolean(String s, String where, int line, String what)
      throws IOException {
    if (s.equals("true")) {
      return true;
    }
    if (s.equals("false")) {
      return false;
    }
    throw damaged(where, line, what + " must be true or false, not '" + abbreviate(s) + "'");
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  static IOException damaged(String where, int line, String why) {
    return new IOException(where + ":" + line + ": damaged history line: " + why);
  }
}
