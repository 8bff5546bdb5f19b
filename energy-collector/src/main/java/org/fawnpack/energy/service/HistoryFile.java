package org.fawnpack.energy.service;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.fawnpack.energy.HistoryFormat;

/**
 * Writes one application's history file on this node, in {@link HistoryFormat}: the node's
 * power over the application's life and the application's containers' accounts. The report
 * command ({@code fawn energy report}) reads it.
 */
final class HistoryFile {

  private HistoryFile() {
  }

  static void write(Writer out, String node, String applicationId, int intervalMillis,
      String meters, boolean estimated, List<PowerHistory.Row> rows,
      List<ContainerRecord> containers) throws IOException {
    out.write(HistoryFormat.header(node, applicationId, intervalMillis, meters, estimated));
    for (PowerHistory.Row row : rows) {
      out.write(HistoryFormat.sample(row.millis(), row.watts(), row.nodeMicrojoules(),
          row.appMicrojoules(), row.gap()));
    }
    for (ContainerRecord c : containers) {
      out.write(HistoryFormat.container(c.containerId(), c.type(), c.vcores(), c.memoryMb(),
          c.startMillis(), c.stopMillis(), c.energyMicrojoules(), c.idleMicrojoules(),
          c.samples(), c.gaps(), c.estimated()));
    }
  }
}
