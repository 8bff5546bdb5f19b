package org.fawnpack.energy.meter;

import java.util.concurrent.TimeUnit;

/**
 * The end of the time one meter read may take. One deadline covers connect and every exchange of
 * a read, so a supply that answers slowly but steadily still cannot hold the sampler longer than
 * {@code timeout-ms}: each blocking socket call gets only what is left.
 */
final class MeterDeadline {
  private final long endNanos;
  private final int timeoutMs;

  private MeterDeadline(long endNanos, int timeoutMs) {
    this.endNanos = endNanos;
    this.timeoutMs = timeoutMs;
  }

  static MeterDeadline after(int timeoutMs) {
    return new MeterDeadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs),
        timeoutMs);
  }

  /**
   * Milliseconds left, at least 1 (a socket timeout of 0 would mean "wait forever").
   *
   * @throws MeterException with cause key "timeout" when nothing is left
   */
  int remainingMillis(String doing) throws MeterException {
    long left = endNanos - System.nanoTime();
    if (left <= 0) {
      throw timedOut(doing);
    }
    return (int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left + 999_999));
  }

  MeterException timedOut(String doing) {
    return new MeterException("timeout", doing + " did not finish within " + timeoutMs + " ms");
  }
}
