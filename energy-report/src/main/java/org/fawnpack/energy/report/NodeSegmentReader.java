package org.fawnpack.energy.report;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.fawnpack.energy.HistoryFormat;
import org.fawnpack.energy.NodeHistoryFormat;

/**
 * Reads the nodes' own histories ({@link NodeHistoryFormat}) over a time window: for every node
 * directory under {@code <history dir>/nodes}, the segments that may hold samples ending in it.
 * Strict as {@link HistoryFileReader}: a damaged line is an error naming the file and line.
 */
public final class NodeSegmentReader {

  /**
   * One interval of a node: its power and energy (attributed: what any container got), then
   * its utilisation — CPU busy percent (-1 unknown), memory in use, and the bytes its disks
   * read and wrote and its network received and sent in the interval (-1 unknown).
   */
  public record NodeSample(long endMillis, double watts, long nodeMicrojoules,
      long attributedMicrojoules, boolean gap, double cpuPercent, long memoryUsedBytes,
      long diskReadBytes, long diskWrittenBytes, long netReceivedBytes, long netSentBytes) {
  }

  /** One node's samples around the window, oldest first, and its header's figures. */
  public record NodeSeries(String node, boolean master, int intervalMillis, int rollMillis,
      String meters, boolean estimated, List<NodeSample> samples) {
    public NodeSeries {
      samples = List.copyOf(samples);
    }
  }

  private NodeSegmentReader() {}

  /**
   * Every node's samples that may end in {@code [fromMillis, toMillis]}, by node name; empty
   * when no collector wrote a node history under {@code historyDir} (older collectors, or
   * {@code fawn.energy.node-history.enabled=false}).
   */
  public static Optional<List<NodeSeries>> read(Configuration conf, String historyDir,
      long fromMillis, long toMillis) throws IOException {
    Path nodesDir = NodeHistoryFormat.nodesDir(conf, historyDir);
    FileSystem fs = nodesDir.getFileSystem(conf);
    FileStatus[] nodes;
    try {
      nodes = fs.listStatus(nodesDir);
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
    List<NodeSeries> result = new ArrayList<>();
    Arrays.sort(nodes, Comparator.comparing(s -> s.getPath().getName()));
    for (FileStatus node : nodes) {
      if (node.isDirectory()) {
        result.add(readNode(fs, node.getPath(), fromMillis, toMillis));
      }
    }
    return Optional.of(result);
  }

  /**
   * One node's segments that may hold samples ending in the window: those starting in it, the
   * last one starting before it (segments do not overlap, so no earlier one reaches it), and
   * the first starting after it (whose first sample may be the one that closes the window).
   */
  static NodeSeries readNode(FileSystem fs, Path nodeDir, long fromMillis, long toMillis)
      throws IOException {
    List<FileStatus> segments = new ArrayList<>();
    for (FileStatus s : fs.listStatus(nodeDir)) {
      if (s.isFile() && NodeHistoryFormat.firstEndMillis(s.getPath().getName()) >= 0) {
        segments.add(s);
      }
    }
    segments.sort(Comparator.comparing(s -> s.getPath().getName()));
    int first = 0;
    for (int i = 0; i < segments.size(); i++) {
      if (NodeHistoryFormat.firstEndMillis(segments.get(i).getPath().getName()) <= fromMillis) {
        first = i;
      }
    }
    String name = nodeDir.getName();
    int interval = 0;
    int roll = 0;
    boolean master = false;
    String meters = null;
    boolean estimated = false;
    List<NodeSample> samples = new ArrayList<>();
    for (FileStatus s : segments.subList(Math.min(first, segments.size()), segments.size())) {
      boolean after = NodeHistoryFormat.firstEndMillis(s.getPath().getName()) > toMillis;
      Segment segment = parse(fs, s.getPath());
      interval = segment.intervalMillis > 0 ? segment.intervalMillis : interval;
      roll = segment.rollMillis > 0 ? segment.rollMillis : roll;
      master |= segment.master;
      meters = segment.meters != null ? segment.meters : meters;
      estimated |= segment.estimated;
      samples.addAll(segment.samples);
      if (after) {
        break;
      }
    }
    samples.sort(Comparator.comparingLong(NodeSample::endMillis));
    return new NodeSeries(name, master, interval, roll, meters, estimated, samples);
  }

  private static final class Segment {
    int intervalMillis;
    int rollMillis;
    boolean master;
    String meters;
    boolean estimated;
    final List<NodeSample> samples = new ArrayList<>();
  }

  private static Segment parse(FileSystem fs, Path file) throws IOException {
    String where = file.toString();
    Segment segment = new Segment();
    try (FSDataInputStream stream = fs.open(file);
        BufferedReader in = new BufferedReader(new InputStreamReader(stream,
            StandardCharsets.UTF_8))) {
      int lineNumber = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lineNumber++;
        if (lineNumber == 1) {
          if (!line.equals(NodeHistoryFormat.MAGIC)) {
            throw HistoryFileReader.damaged(where, 1, "not a fawn-energy node history v1"
                + " segment (first line is not '" + NodeHistoryFormat.MAGIC + "')");
          }
          continue;
        }
        if (line.isBlank()) {
          continue;
        }
        if (line.startsWith("#")) {
          header(line.substring(1).trim(), segment, where, lineNumber);
          continue;
        }
        String[] f = line.split(",", -1);
        if (!f[0].equals(HistoryFormat.SAMPLE)) {
          throw HistoryFileReader.damaged(where, lineNumber, "unknown record '" + f[0]
              + "' (a node history holds samples only)");
        }
        segment.samples.add(sample(f, where, lineNumber));
      }
      if (lineNumber == 0) {
        throw new IOException(where + ": empty segment (no '" + NodeHistoryFormat.MAGIC
            + "' line)");
      }
    }
    return segment;
  }

  private static NodeSample sample(String[] f, String where, int line) throws IOException {
    if (f.length != NodeHistoryFormat.SAMPLE_FIELDS) {
      throw HistoryFileReader.damaged(where, line, f.length + " fields where "
          + NodeHistoryFormat.SAMPLE_FIELDS + " were expected (" + NodeHistoryFormat.SAMPLE_FORM
          + ")");
    }
    NodeHistory.Sample power = HistoryFileReader.sample(Arrays.copyOf(f,
        HistoryFormat.SAMPLE_FIELDS), where, line, "attributed uJ");
    double cpu;
    try {
      cpu = Double.parseDouble(f[6].trim());
    } catch (NumberFormatException e) {
      throw HistoryFileReader.damaged(where, line, "cpu % is not a number: '" + f[6] + "'");
    }
    return new NodeSample(power.endMillis(), power.watts(), power.nodeMicrojoules(),
        power.appMicrojoules(), power.gap(), cpu,
        HistoryFileReader.parseLong(f[7], where, line, "memory used B"),
        HistoryFileReader.parseLong(f[8], where, line, "disk read B"),
        HistoryFileReader.parseLong(f[9], where, line, "disk written B"),
        HistoryFileReader.parseLong(f[10], where, line, "net received B"),
        HistoryFileReader.parseLong(f[11], where, line, "net sent B"));
  }

  private static void header(String comment, Segment segment, String where, int line)
      throws IOException {
    if (!comment.startsWith("node=")) {
      return;
    }
    for (String field : comment.split("\\s+")) {
      int eq = field.indexOf('=');
      if (eq < 0) {
        continue;
      }
      String value = field.substring(eq + 1);
      switch (field.substring(0, eq)) {
        case "interval_ms" -> segment.intervalMillis = (int) HistoryFileReader.parseLong(value,
            where, line, "interval_ms");
        case "roll_ms" -> segment.rollMillis = (int) HistoryFileReader.parseLong(value, where,
            line, "roll_ms");
        case "meters" -> segment.meters = value;
        case "role" -> segment.master = value.equals("master");
        case "estimated" -> segment.estimated = HistoryFileReader.parseBoolean(value, where,
            line, "estimated");
        default -> {
          // the node's name (its directory names it too), or a later version's field
        }
      }
    }
  }
}
