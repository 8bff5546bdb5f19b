package org.fawnpack.energy.service;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/**
 * The per-application, per-node history file ({@code <history dir>/<appId>/<node>.csv}): the
 * node's power over the application's life and the application's containers' accounts. Format
 * (version 1), one record per line, comma-separated, '#' lines are comments:
 * <pre>
 * # fawn-energy history v1
 * # node=&lt;name&gt; application=&lt;appId&gt; interval_ms=&lt;n&gt; meters=&lt;name:type;...&gt; estimated=&lt;bool&gt;
 * sample,&lt;end epoch ms&gt;,&lt;node watts&gt;,&lt;node uJ in interval&gt;,&lt;application uJ in interval&gt;,&lt;gap 0|1&gt;
 * container,&lt;id&gt;,&lt;type&gt;,&lt;vcores&gt;,&lt;memory MB&gt;,&lt;start ms&gt;,&lt;stop ms or -1&gt;,&lt;energy uJ&gt;,&lt;idle uJ&gt;,&lt;samples&gt;,&lt;gaps&gt;,&lt;estimated&gt;
 * </pre>
 * The report command ({@code fawn energy report}) reads it.
 */
final class HistoryFile {
  static final String MAGIC = "# fawn-energy history v1";

  private HistoryFile() {
  }

  static void write(Writer out, String node, String applicationId, int intervalMillis,
      String meters, boolean estimated, List<PowerHistory.Row> rows,
      List<ContainerRecord> containers) throws IOException {
    out.write(MAGIC + "\n");
    out.write("# node=" + node + " application=" + applicationId + " interval_ms=" + intervalMillis
        + " meters=" + meters + " estimated=" + estimated + "\n");
    for (PowerHistory.Row row : rows) {
      out.write(String.format(Locale.ROOT, "sample,%d,%.4f,%d,%d,%d%n", row.millis(), row.watts(),
          row.nodeMicrojoules(), row.appMicrojoules(), row.gap() ? 1 : 0));
    }
    for (ContainerRecord c : containers) {
      out.write("container," + c.containerId() + "," + c.type() + "," + c.vcores() + ","
          + c.memoryMb() + "," + c.startMillis() + "," + c.stopMillis() + ","
          + c.energyMicrojoules() + "," + c.idleMicrojoules() + "," + c.samples() + ","
          + c.gaps() + "," + c.estimated() + "\n");
    }
  }
}
