package org.fawnpack.kv.frontend;

import java.util.function.LongSupplier;

/**
 * How long a front-end may go on serving by what it last heard from ZooKeeper, on its own
 * monotonic clock. ZooKeeper expires a session no sooner than its timeout after the server last
 * heard from the client, and a front-end's slice moves to others only once its session expired.
 * So a front-end that had an answer to a request it sent at {@code t} may serve until {@code t}
 * plus two thirds of the timeout (the rest is margin for clocks that run at slightly different
 * rates), whatever its ZooKeeper client has or has not noticed yet: a process frozen past its
 * session (a long GC pause, SIGSTOP, a stalled VM) finds its lease run out the moment it
 * resumes, before it reads a request, instead of learning it from its ZooKeeper connection a
 * hundred milliseconds later. Thread-safe.
 */
final class Lease {
  private final LongSupplier nanoTime;
  private final boolean needed;
  private volatile long untilNanos;
  private volatile boolean ever;

  private Lease(LongSupplier nanoTime, boolean needed) {
    this.nanoTime = nanoTime;
    this.needed = needed;
  }

  /** A lease that must be renewed, on {@code nanoTime} (System::nanoTime outside tests). */
  static Lease renewable(LongSupplier nanoTime) {
    return new Lease(nanoTime, true);
  }

  /** Always held: a front-end with no ZooKeeper, alone in its cluster. */
  static Lease always() {
    return new Lease(System::nanoTime, false);
  }

  boolean held() {
    return !needed || ever && nanoTime.getAsLong() - untilNanos < 0;
  }

  /** How long ago it ran out, in ms (0 while held, -1 if never held). */
  long lapsedMs() {
    if (!needed) {
      return 0;
    }
    if (!ever) {
      return -1;
    }
    return Math.max(0, (nanoTime.getAsLong() - untilNanos) / 1_000_000);
  }

  /**
   * ZooKeeper answered a request sent at {@code sentAtNanos} (read before sending) in this
   * front-end's session: held until then plus {@code lengthNanos}, unless held longer already.
   */
  synchronized void renew(long sentAtNanos, long lengthNanos) {
    long until = sentAtNanos + lengthNanos;
    if (!ever || until - untilNanos > 0) {
      untilNanos = until;
    }
    ever = true;
  }
}
