package org.fawnpack.energy.service;

import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a meter's failures once per kind of failure, and its recovery once, so a meter that is
 * down for an hour writes two lines, not 3,600.
 */
final class GapLog {
  private static final Logger LOG = LoggerFactory.getLogger(GapLog.class);
  private final String meter;
  private final Map<String, Long> countsByCause = new HashMap<>();
  private long gapsSinceGood;

  GapLog(String meter) {
    this.meter = meter;
  }

  synchronized void gap(String cause, String detail) {
    long count = countsByCause.merge(cause, 1L, Long::sum);
    gapsSinceGood++;
    if (count == 1) {
      LOG.warn("Energy meter '{}': {} ({}). Counted as a gap; logged once per cause.", meter,
          detail, cause);
    }
  }

  synchronized void good() {
    if (gapsSinceGood > 0) {
      LOG.info("Energy meter '{}' reads again after {} gap(s)", meter, gapsSinceGood);
      gapsSinceGood = 0;
    }
  }

  synchronized long total() {
    return countsByCause.values().stream().mapToLong(Long::longValue).sum();
  }
}
