package org.fawnpack.kv.backend;

import java.io.IOException;
import java.util.Map;

/**
 * Where a back-end reports what it holds of arcs every serving member of which went down:
 * arc end to the last sequence number of its file there, -1 when it has none.
 */
@FunctionalInterface
public interface OrphanReporter {
  void report(Map<Long, Long> lastSequences) throws IOException;
}
