package org.fawnpack.energy;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * A node's own history, defined once: every collector writes every sample of its node, busy or
 * idle, in segments {@code <fawn.energy.history.dir>/nodes/<node>/<first sample end ms>.csv},
 * and the report sums them into a job's cluster energy. Version 1, one record per line,
 * comma-separated, '#' lines are comments:
 * <pre>
 * # fawn-energy node history v1
 * # node=&lt;name&gt; role=&lt;master|slave&gt; interval_ms=&lt;n&gt; roll_ms=&lt;n&gt; meters=&lt;name:type;...&gt; estimated=&lt;bool&gt;
 * sample,&lt;end epoch ms&gt;,&lt;node watts&gt;,&lt;node uJ in interval&gt;,&lt;uJ attributed to containers&gt;,&lt;gap 0|1&gt;,&lt;cpu %&gt;,&lt;memory used bytes&gt;,&lt;disk read bytes&gt;,&lt;disk written bytes&gt;,&lt;net received bytes&gt;,&lt;net sent bytes&gt;
 * </pre>
 * The last six are the node's utilisation in the interval (from {@code /proc}); -1 where the
 * platform has no such figure.
 * A segment holds the samples taken since the one before it, so the segments of a node do not
 * overlap; the attributed column is what the node booked to containers of any application (the
 * rest went to no container: idle); {@code roll_ms} says when the next segment is due, so a
 * report can tell a history not written yet from a node that stopped.
 */
public final class NodeHistoryFormat {
  /** The first line of every segment. */
  public static final String MAGIC = "# fawn-energy node history v1";
  /** The directory under the history directory that holds one directory per node. */
  public static final String NODES_DIR = "nodes";
  public static final String SUFFIX = ".csv";

  private NodeHistoryFormat() {}

  /** {@code <historyDir>/nodes}, qualified against the directory's file system. */
  public static Path nodesDir(Configuration conf, String historyDir) throws IOException {
    Path dir = new Path(new Path(historyDir), NODES_DIR);
    return dir.getFileSystem(conf).makeQualified(dir);
  }

  /** A segment's file name: its first sample's end time, zero-padded so names sort by time. */
  public static String segmentName(long firstEndMillis, int attempt) {
    String time = String.format(Locale.ROOT, "%013d", firstEndMillis);
    return (attempt <= 1 ? time : time + "-" + attempt) + SUFFIX;
  }

  /** The first sample's end time a segment's file name carries, or -1 for another name. */
  public static long firstEndMillis(String fileName) {
    if (!fileName.endsWith(SUFFIX)) {
      return -1;
    }
    String stem = fileName.substring(0, fileName.length() - SUFFIX.length());
    int dash = stem.indexOf('-');
    String time = dash < 0 ? stem : stem.substring(0, dash);
    if (time.isEmpty() || time.length() > 19 || !time.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    return Long.parseLong(time);
  }

  /** The two header lines. */
  public static String header(String node, String role, int intervalMillis, int rollMillis,
      String meters, boolean estimated) {
    return MAGIC + "\n# node=" + node + " role=" + role + " interval_ms=" + intervalMillis
        + " roll_ms=" + rollMillis + " meters=" + meters + " estimated=" + estimated + "\n";
  }

  /** Fields of a sample record, its tag included. */
  public static final int SAMPLE_FIELDS = 12;
  public static final String SAMPLE_FORM = "sample,<end ms>,<watts>,<node uJ>,<attributed uJ>,"
      + "<gap>,<cpu %>,<memory used B>,<disk read B>,<disk written B>,<net received B>,"
      + "<net sent B>";

  /**
   * One sample: the interval ending at {@code endMillis}, its power and energy as in
   * {@link HistoryFormat#sample}, then the node's utilisation in it ({@code cpuShare} 0 to 1,
   * NaN when unknown; the byte figures -1 when unknown).
   */
  public static String sample(long endMillis, double watts, long nodeMicrojoules,
      long attributedMicrojoules, boolean gap, double cpuShare, long memoryUsedBytes,
      long diskReadBytes, long diskWrittenBytes, long netReceivedBytes, long netSentBytes) {
    String power = HistoryFormat.sample(endMillis, watts, nodeMicrojoules,
        attributedMicrojoules, gap);
    return power.substring(0, power.length() - System.lineSeparator().length())
        + String.format(Locale.ROOT, ",%s,%d,%d,%d,%d,%d%n", Double.isNaN(cpuShare) ? "-1"
            : String.format(Locale.ROOT, "%.1f", cpuShare * 100), memoryUsedBytes,
            diskReadBytes, diskWrittenBytes, netReceivedBytes, netSentBytes);
  }
}
