package org.fawnpack.kv.backend;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongPredicate;

/**
 * Requests held while their arc is gated by a bulk load becoming visible: each goes on when
 * the gate opens, or is refused after {@link #MAX_WAIT_MS} (the client retries within its
 * deadline). At most {@link #MAX_WAITING} are held; more are refused at once.
 */
final class GateWaits {
  /** Longer than a load's apply on these machines; a client's deadline ends a longer wait. */
  static final long MAX_WAIT_MS = 10_000;
  static final int MAX_WAITING = 10_000;

  /** One held request: whichever of open and timeout comes first runs. */
  private record Waiter(Runnable retry, Runnable refuse, AtomicBoolean done) {
    void run(boolean opened) {
      if (done.compareAndSet(false, true)) {
        (opened ? retry : refuse).run();
      }
    }
  }

  private final LongPredicate open;
  private final ScheduledExecutorService timer;
  private final Map<Long, List<Waiter>> waiting = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger held =
      new java.util.concurrent.atomic.AtomicInteger();

  GateWaits(LongPredicate open, ScheduledExecutorService timer) {
    this.open = open;
    this.timer = timer;
  }

  void add(long arcEnd, Runnable retry, Runnable refuse) {
    if (held.incrementAndGet() > MAX_WAITING) {
      held.decrementAndGet();
      refuse.run();
      return;
    }
    Waiter w = new Waiter(() -> {
      held.decrementAndGet();
      retry.run();
    }, () -> {
      held.decrementAndGet();
      refuse.run();
    }, new AtomicBoolean());
    waiting.compute(arcEnd, (end, list) -> {
      List<Waiter> l = list == null ? new ArrayList<>() : list;
      l.add(w);
      return l;
    });
    if (open.test(arcEnd)) { // opened while it was being added: not left behind
      opened(Set.of(arcEnd));
      return;
    }
    try {
      timer.schedule(() -> w.run(false), MAX_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      w.run(false); // closing
    }
  }

  /** The gates of {@code arcEnds} opened: their held requests go on (off this thread). */
  void opened(Set<Long> arcEnds) {
    for (long end : arcEnds) {
      List<Waiter> list = waiting.remove(end);
      if (list == null) {
        continue;
      }
      List<Waiter> copy;
      synchronized (list) {
        copy = new ArrayList<>(list);
      }
      try {
        timer.execute(() -> copy.forEach(w -> w.run(true)));
      } catch (RejectedExecutionException e) {
        copy.forEach(w -> w.run(false));
      }
    }
  }
}
