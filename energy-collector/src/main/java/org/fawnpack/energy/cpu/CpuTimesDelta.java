package org.fawnpack.energy.cpu;

/**
 * Turns two cumulative host CPU counters (busy time, total time) into the busy fraction since the
 * previous update. Shared by the /proc/stat and SIGAR readers so both treat edge cases alike.
 */
final class CpuTimesDelta {
  private boolean primed;
  private long lastBusy;
  private long lastTotal;
  private double lastFraction = Double.NaN;

  /** Busy fraction in [0,1] since the previous update; NaN on the first. */
  double update(long busy, long total) {
    if (!primed) {
      remember(busy, total);
      primed = true;
      return Double.NaN;
    }
    long dTotal = total - lastTotal;
    if (dTotal == 0) {
      // Called twice within one clock tick: nothing new to say; keep the older baseline.
      return lastFraction;
    }
    if (dTotal < 0) {
      // The total went backwards (CPU taken offline drops its times): start again from here.
      remember(busy, total);
      return lastFraction;
    }
    // iowait (and so "busy") is not strictly monotonic on Linux, hence the clamp.
    double fraction = Math.min(1.0, Math.max(0.0, (double) (busy - lastBusy) / dTotal));
    remember(busy, total);
    lastFraction = fraction;
    return fraction;
  }

  private void remember(long busy, long total) {
    lastBusy = busy;
    lastTotal = total;
  }
}
