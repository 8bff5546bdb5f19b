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
 * # node=&lt;name&gt; interval_ms=&lt;n&gt; roll_ms=&lt;n&gt; meters=&lt;name:type;...&gt; estimated=&lt;bool&gt;
 * sample,&lt;end epoch ms&gt;,&lt;node watts&gt;,&lt;node uJ in interval&gt;,&lt;uJ attributed to containers&gt;,&lt;gap 0|1&gt;
 * </pre>
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
  public static String header(String node, int intervalMillis, int rollMillis, String meters,
      boolean estimated) {
    return MAGIC + "\n# node=" + node + " interval_ms=" + intervalMillis + " roll_ms="
        + rollMillis + " meters=" + meters + " estimated=" + estimated + "\n";
  }

  /** One sample: the interval ending at {@code endMillis}, as {@link HistoryFormat#sample}. */
  public static String sample(long endMillis, double watts, long nodeMicrojoules,
      long attributedMicrojoules, boolean gap) {
    return HistoryFormat.sample(endMillis, watts, nodeMicrojoules, attributedMicrojoules, gap);
  }
}
