package org.fawnpack.energy.service;

import java.util.Map;

/**
 * One sampling interval as the ledger sees it: the node's metered energy over
 * [{@code startNanos}, {@code endNanos}], the part of it that is idle power, and each live
 * container's cumulative CPU time at the end (absent when unreadable).
 */
record Interval(long startNanos, long endNanos, long energyMicrojoules, long idleMicrojoules,
    Map<String, Long> cpuNanos, boolean gap, boolean estimated) {

  Interval {
    if (endNanos < startNanos || energyMicrojoules < 0 || idleMicrojoules < 0
        || idleMicrojoules > energyMicrojoules) {
      throw new IllegalArgumentException("bad interval [" + startNanos + ", " + endNanos
          + "] energy=" + energyMicrojoules + " idle=" + idleMicrojoules);
    }
  }

  long lengthNanos() {
    return endNanos - startNanos;
  }
}
