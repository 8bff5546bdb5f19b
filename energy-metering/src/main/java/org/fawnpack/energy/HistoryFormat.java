package org.fawnpack.energy;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The energy history file, defined once: the collector writes it with these lines and the
 * report reads it by these names. One file per application and node,
 * {@code <fawn.energy.history.dir>/<applicationId>/<node>.csv}; version 1, one record per line,
 * comma-separated, '#' lines are comments:
 * <pre>
 * # fawn-energy history v1
 * # node=&lt;name&gt; application=&lt;appId&gt; interval_ms=&lt;n&gt; meters=&lt;name:type;...&gt; estimated=&lt;bool&gt;
 * sample,&lt;end epoch ms&gt;,&lt;node watts&gt;,&lt;node uJ in interval&gt;,&lt;application uJ in interval&gt;,&lt;gap 0|1&gt;
 * container,&lt;id&gt;,&lt;type&gt;,&lt;vcores&gt;,&lt;memory MB&gt;,&lt;start ms&gt;,&lt;stop ms or -1&gt;,&lt;energy uJ&gt;,&lt;idle uJ&gt;,&lt;samples&gt;,&lt;gaps&gt;,&lt;estimated&gt;
 * </pre>
 */
public final class HistoryFormat {

  /** The first line of every history file. */
  public static final String MAGIC = "# fawn-energy history v1";
  public static final String SAMPLE = "sample";
  public static final String CONTAINER = "container";
  /** Fields of each record, its tag included. */
  public static final int SAMPLE_FIELDS = 6;
  public static final int CONTAINER_FIELDS = 12;
  public static final String SAMPLE_FORM = "sample,<end ms>,<watts>,<node uJ>,<app uJ>,<gap>";
  public static final String CONTAINER_FORM = "container,<id>,<type>,<vcores>,<memory MB>,"
      + "<start ms>,<stop ms>,<energy uJ>,<idle uJ>,<samples>,<gaps>,<estimated>";

  private HistoryFormat() {}

  /** The history directory {@code conf} names ({@link EnergyKeys#HISTORY_DIR}). */
  public static String historyDir(Configuration conf) {
    String dir = conf.getTrimmed(EnergyKeys.HISTORY_DIR.name());
    return dir == null || dir.isEmpty() ? EnergyKeys.HISTORY_DIR.defaultValue() : dir;
  }

  /** {@code <historyDir>/<applicationId>}, qualified against the directory's file system. */
  public static Path applicationDir(Configuration conf, String historyDir, String applicationId)
      throws IOException {
    Path dir = new Path(new Path(historyDir), applicationId);
    return dir.getFileSystem(conf).makeQualified(dir);
  }

  /** The two header lines. */
  public static String header(String node, String applicationId, int intervalMillis,
      String meters, boolean estimated) {
    return MAGIC + "\n# node=" + node + " application=" + applicationId + " interval_ms="
        + intervalMillis + " meters=" + meters + " estimated=" + estimated + "\n";
  }

  /** One power sample: the interval ending at {@code endMillis}. */
  public static String sample(long endMillis, double watts, long nodeMicrojoules,
      long appMicrojoules, boolean gap) {
    return String.format(Locale.ROOT, "%s,%d,%.4f,%d,%d,%d%n", SAMPLE, endMillis, watts,
        nodeMicrojoules, appMicrojoules, gap ? 1 : 0);
  }

  /** One container's account. */
  public static String container(String containerId, String type, int vcores, long memoryMb,
      long startMillis, long stopMillis, long energyMicrojoules, long idleMicrojoules,
      long samples, long gaps, boolean estimated) {
    return String.join(",", CONTAINER, containerId, type, Integer.toString(vcores),
        Long.toString(memoryMb), Long.toString(startMillis), Long.toString(stopMillis),
        Long.toString(energyMicrojoules), Long.toString(idleMicrojoules),
        Long.toString(samples), Long.toString(gaps), Boolean.toString(estimated)) + "\n";
  }
}
