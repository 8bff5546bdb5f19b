package org.fawnpack.energy.meter;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Paces how often an SNMPv3 meter drops its session after a timeout so that the next read
 * rediscovers the agent's engine ID.
 *
 * <p>A session keeps the engine ID (and engine time) it discovered first. A PDU whose network
 * card was replaced or reset answers on the same address under a new engine ID, and the old
 * session's requests then go unanswered for as long as the NodeManager runs. A fresh session
 * costs a socket and one discovery round trip, so the first timeout may always start one; later
 * ones at most once per {@link #MIN_INTERVAL_NANOS}, so a dead agent does not churn sockets
 * every sample. (A fresh session that has not yet reached its agent rediscovers on every read by
 * itself: it has no engine ID to keep.)
 */
final class EngineRediscoveryPacer {
  static final long MIN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final LongSupplier nanoClock;
  private boolean rediscovered;
  private long lastNanos;

  /** @param nanoClock a monotonic clock in nanoseconds, {@code System::nanoTime} in service */
  EngineRediscoveryPacer(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
  }

  /** After a timeout: true if the session may be dropped now (and counts that it is). */
  synchronized boolean mayRediscover() {
    long now = nanoClock.getAsLong();
    if (rediscovered && now - lastNanos < MIN_INTERVAL_NANOS) {
      return false;
    }
    rediscovered = true;
    lastNanos = now;
    return true;
  }
}
