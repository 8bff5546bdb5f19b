package org.fawnpack.kv.backend;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What makes a get sent straight to a tail by a client's own ring (DIRECT_GET) as safe as one
 * a front-end routes. A front-end owns its keys' slice, so it sees one epoch at a time for
 * both the writes and the reads of a key; a client does not. A tail that left its chain (its
 * session expired while it was stopped, or a planned change moved the arc) but has not seen
 * the new epoch yet would answer a client still on the old ring with a value the new chain has
 * overwritten. Two rules close that, both on one length L ({@code fawn.kv.tail-read-lease-ms}):
 *
 * <ol>
 *   <li>A tail answers DIRECT_GET only while its <em>lease</em> holds: it asks ZooKeeper for
 *       the published epoch every L/4 (sync, then read), and a read sent at {@code s} that
 *       found no epoch newer than the one it serves holds the lease until {@code s + 0.8 L} on
 *       its own monotonic clock (the rest is margin for clocks that run at slightly different
 *       rates). A process frozen past that finds its lease gone the moment it resumes.
 *   <li>A member that takes an epoch in which it is the tail of an arc some other member was
 *       the tail of (of any part of it) in its previous ring and that member is no longer in
 *       the chain — or any arc, on its first ring or after skipping an epoch — <em>holds</em>
 *       that arc for L from then: it answers no get
 *       and acknowledges no write of it before. Any such epoch was published after every lease
 *       an old tail could hold for an older one was taken, so by the time the new chain shows or
 *       acknowledges a write, no old tail still answers direct gets.
 * </ol>
 *
 * With L = 0 (the default) direct gets are refused and nothing is held: clients read through
 * the front-ends. Thread-safe.
 */
final class TailLease implements java.io.Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TailLease.class);

  private final String id;
  private volatile long leaseNanos; // 0: direct gets refused, nothing held
  private volatile long heldUntilNanos;
  private volatile long confirmedEpoch = -1;
  private volatile boolean confirmed;
  private final Map<Long, Long> arcsHeldUntil = new ConcurrentHashMap<>();
  private java.util.concurrent.ScheduledExecutorService renewal; // null until renewWith

  TailLease(String id) {
    this.id = id;
  }

  /** Turns the lease on with length {@code leaseMs} (before the first ring is taken). */
  void enable(long leaseMs) {
    if (leaseMs <= 0) {
      throw new IllegalArgumentException("a tail read lease is positive: " + leaseMs + " ms");
    }
    leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMs);
  }

  boolean enabled() {
    return leaseNanos > 0;
  }

  /** How often {@link #renew} should run: a quarter of the lease. */
  long renewEveryMs() {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(leaseNanos) / 4);
  }

  /**
   * Renews the lease through {@code probe} every {@link #renewEveryMs} from now on, for the
   * epoch {@code serving} gives at each turn, on a thread of its own: a ZooKeeper round trip
   * that waits out a slow server delays no answer.
   */
  synchronized void renewWith(RingEpochProbe probe, java.util.function.LongSupplier serving) {
    if (renewal != null) {
      throw new IllegalStateException("backend " + id + ": its tail read lease is renewed"
          + " already");
    }
    renewal = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-tail-lease-" + id);
      t.setDaemon(true);
      return t;
    });
    renewal.scheduleWithFixedDelay(() -> renew(probe, serving.getAsLong()), 0, renewEveryMs(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void close() {
    if (renewal != null) {
      renewal.shutdownNow();
    }
  }

  /** Asks {@code probe} once; renews the lease when no epoch newer than {@code serving} is out. */
  void renew(RingEpochProbe probe, long serving) {
    long sentAt = System.nanoTime();
    try {
      long published = probe.publishedEpoch();
      if (published <= serving) {
        synchronized (this) {
          long until = sentAt + leaseNanos / 5 * 4;
          if (!confirmed || until - heldUntilNanos > 0) {
            heldUntilNanos = until;
          }
          confirmedEpoch = Math.max(confirmedEpoch, published);
          confirmed = true;
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("backend {}: tail read lease not renewed: {}", id, e.toString());
    }
  }

  /** Why a DIRECT_GET is refused now by a member serving {@code serving}, or null. */
  String directGetRefusal(long serving) {
    if (!enabled()) {
      return "backend " + id + " answers no direct get (fawn.kv.tail-read-lease-ms is 0)";
    }
    if (!confirmed || System.nanoTime() - heldUntilNanos >= 0 || serving < confirmedEpoch) {
      return "backend " + id + " holds no tail read lease now (ZooKeeper not heard from"
          + " recently enough for epoch " + serving + ")";
    }
    return null;
  }

  /**
   * {@code me} takes {@code next} after {@code before} (null: its first ring): the arcs it is
   * the tail of where another member may have been are held for the lease's length.
   */
  void ringChanging(Ring before, Ring next, Member me) {
    if (!enabled()) {
      return;
    }
    long until = System.nanoTime() + leaseNanos;
    boolean everyArc = before == null || next.epoch() != before.epoch() + 1;
    int held = 0;
    for (Chain chain : next.chains()) {
      if (chain.isEmpty() || !chain.tail().equals(me)) {
        continue;
      }
      if (everyArc || tailMoved(before, chain, me)) {
        arcsHeldUntil.put(chain.range().endInclusive(), until);
        held++;
      }
    }
    if (held > 0) {
      LOG.info("backend {}: holds {} arcs for {} ms in epoch {}: their tail moved here{}", id,
          held, TimeUnit.NANOSECONDS.toMillis(leaseNanos), next.epoch(),
          everyArc ? " (or its previous ring is not epoch " + (next.epoch() - 1) + ")" : "");
    }
  }

  /**
   * Whether a tail of the arc's range in {@code before} other than {@code me} left the chain. One
   * still in it (a member appended after it) takes no write before it is on the new epoch, where
   * it answers direct gets of the old one STALE_RING: so nothing the new tail holds is newer
   * than what it answers until then.
   */
  private static boolean tailMoved(Ring before, Chain now, Member me) {
    for (Chain earlier : before.chains()) {
      if (earlier.range().overlaps(now.range()) && (earlier.isEmpty()
          || !earlier.tail().equals(me) && !now.members().contains(earlier.tail()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sends {@code reply} (a tail's acknowledgement of a write of the arc ending at {@code
   * arcEnd}) once the arc is no longer held; dropped if the back-end closes meanwhile.
   */
  void sendWhenNotHeld(long arcEnd, org.fawnpack.kv.wire.FrameServer.Replies replies,
      org.fawnpack.kv.wire.Frame reply, java.util.concurrent.ScheduledExecutorService timer) {
    afterHold(arcEnd, () -> replies.send(reply), timer);
  }

  /**
   * Runs {@code action} now when the arc ending at {@code arcEnd} is not held, or once its hold
   * ends; returns whether it ran now. Dropped if the back-end closes meanwhile.
   */
  boolean afterHold(long arcEnd, Runnable action,
      java.util.concurrent.ScheduledExecutorService timer) {
    long wait = heldNanos(arcEnd);
    if (wait <= 0) {
      action.run();
      return true;
    }
    try {
      timer.schedule(action, wait, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("backend {} closing: a held answer is not sent", id);
    }
    return false;
  }

  /** How long gets and write acknowledgements of the arc ending at {@code arcEnd} still wait. */
  long heldNanos(long arcEnd) {
    Long until = arcsHeldUntil.get(arcEnd);
    if (until == null) {
      return 0;
    }
    long left = until - System.nanoTime();
    if (left <= 0) {
      arcsHeldUntil.remove(arcEnd, until);
      return 0;
    }
    return left;
  }
}
