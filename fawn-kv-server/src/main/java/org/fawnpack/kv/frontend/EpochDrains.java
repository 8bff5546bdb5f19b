package org.fawnpack.kv.frontend;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A front-end's wait, on a new slice epoch, for the requests it took under older ones: the
 * last of them to be answered ends it (no polling), and so does, after {@link
 * #DRAIN_LIMIT_MS} (in a front-end), the limit, which fails those still on their way (outcome unknown). Either
 * way the epoch is then reported drained, unless a newer one has started its own drain.
 */
final class EpochDrains {
  private static final Logger LOG = LoggerFactory.getLogger(EpochDrains.class);
  /** Requests older than a new epoch still unanswered after this are failed (unknown). */
  static final long DRAIN_LIMIT_MS = 5_000;

  /** A request on its way, taken under a slice epoch. */
  interface OnItsWay {
    long epoch();

    boolean isAnswered();

    /** Answers it ERROR (outcome unknown) unless it was answered meanwhile. */
    void failAfterDrainLimit(long limitMs);
  }

  private final String self;
  private final ScheduledExecutorService timer;
  private final LongSupplier currentEpoch;
  private final LongConsumer drained;
  private final long limitMs;
  /** The newest epoch's drain (a newer one replaces it); null before the first. */
  private final AtomicReference<Drain> draining = new AtomicReference<>();

  /**
   * @param currentEpoch the epoch the front-end serves by now (a drain of another reports
   *     nothing)
   * @param drained told, on {@code timer}, that an epoch is drained
   * @param limitMs how long a drain waits ({@link #DRAIN_LIMIT_MS} in a front-end)
   */
  EpochDrains(String self, ScheduledExecutorService timer, LongSupplier currentEpoch,
      LongConsumer drained, long limitMs) {
    this.self = self;
    this.limitMs = limitMs;
    this.timer = timer;
    this.currentEpoch = currentEpoch;
    this.drained = drained;
  }

  /** Starts the drain of {@code epoch}: waits for every request in {@code onItsWay} older. */
  void start(long epoch, Iterable<? extends OnItsWay> onItsWay) {
    Drain d = new Drain(epoch);
    draining.set(d); // before the snapshot: a request answered after it finds d
    for (OnItsWay r : onItsWay) {
      if (r.epoch() < epoch) {
        d.waitingFor.add(r);
      }
    }
    // One answered while the snapshot was taken may have looked for itself before it was added.
    d.waitingFor.removeIf(OnItsWay::isAnswered);
    if (d.waitingFor.isEmpty()) {
      schedule(() -> finish(d, false), 0);
    } else {
      d.limit = schedule(() -> finish(d, true), limitMs);
    }
  }

  /** {@code r} was answered (called once per request, after it left the caller's set). */
  void answered(OnItsWay r) {
    Drain d = draining.get();
    if (d != null && r.epoch() < d.epoch && d.waitingFor.remove(r) && d.waitingFor.isEmpty()) {
      schedule(() -> finish(d, false), 0); // off the answering thread: it may be an event loop
    }
  }

  /** On the timer, once per drain. */
  private void finish(Drain d, boolean limitReached) {
    if (!d.finished.compareAndSet(false, true)) {
      return;
    }
    Future<?> limit = d.limit;
    if (limit != null) {
      limit.cancel(false);
    }
    if (currentEpoch.getAsLong() != d.epoch) {
      return; // a newer epoch drains (and reports) for itself
    }
    if (limitReached) {
      for (OnItsWay r : List.copyOf(d.waitingFor)) {
        r.failAfterDrainLimit(limitMs);
      }
    }
    drained.accept(d.epoch);
  }

  /** Null when the timer is shut down (the front-end is closing). */
  private Future<?> schedule(Runnable task, long delayMs) {
    if (!timer.isShutdown()) {
      try {
        return timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        LOG.debug("front-end {} closing: {} not run", self, task);
      }
    }
    return null;
  }

  private static final class Drain {
    final long epoch;
    final Set<OnItsWay> waitingFor = ConcurrentHashMap.newKeySet();
    final AtomicBoolean finished = new AtomicBoolean();
    volatile Future<?> limit;

    Drain(long epoch) {
      this.epoch = epoch;
    }
  }
}
