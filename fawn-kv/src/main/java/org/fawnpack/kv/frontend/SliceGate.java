package org.fawnpack.kv.frontend;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which requests a front-end takes: those whose key's bucket it owns in its slice map, and not
 * while the bucket moves in a handover or while its ZooKeeper connection is suspended (its
 * slice may then be given away). It tracks every request it took until answered, so that on a
 * new slice epoch it can say, once the older ones are answered, that it serves by that epoch
 * alone ({@link Acknowledger}); the coordinator lets new owners serve only after that. Its
 * lock makes taking a request, filling the cache and switching maps atomic to one another.
 */
final class SliceGate {
  private static final Logger LOG = LoggerFactory.getLogger(SliceGate.class);
  /** How often a drain looks whether older requests are answered. */
  private static final long DRAIN_POLL_MS = 5;
  /** Requests older than a new epoch still unanswered after this are failed (unknown). */
  static final long DRAIN_LIMIT_MS = 5_000;
  private static final long ACK_RETRY_MS = 1_000;

  /** Tells the coordinator this front-end serves by an epoch and no older one. */
  interface Acknowledger {
    void acknowledge(long epoch) throws IOException;
  }

  enum Verdict { SERVE, WRONG_SLICE, MOVING, NOT_READY }

  /** What to do with a request: serve it through {@code admission}, or answer why not. */
  record Decision(Verdict verdict, SliceMap map, Admission admission, String reason) {}

  private final String self;
  private final HotCache cache;
  private final ScheduledExecutorService timer;
  private volatile Acknowledger acknowledger = epoch -> { };
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Set<Admission> inFlight = ConcurrentHashMap.newKeySet();
  private SliceMap map; // guarded by lock
  private String notReady = "has no slice map yet"; // guarded by lock; null when serving

  SliceGate(String self, HotCache cache, ScheduledExecutorService timer) {
    this.self = self;
    this.cache = cache;
    this.timer = timer;
  }

  void acknowledgeThrough(Acknowledger acknowledger) {
    this.acknowledger = acknowledger;
  }

  /** Takes the request for {@code key}, or says why not. */
  Decision admit(byte[] key, Frame request, FrameServer.Replies replies) {
    lock.readLock().lock();
    try {
      if (notReady != null) {
        return new Decision(Verdict.NOT_READY, map, null, "front-end " + self + " " + notReady);
      }
      int bucket = map.bucketOf(key);
      SliceMap.Endpoint owner = map.ownerOf(bucket);
      if (!owner.name().equals(self)) {
        return new Decision(Verdict.WRONG_SLICE, map, null, "front-end " + owner
            + " serves this key in " + map);
      }
      if (!map.servable(bucket)) {
        return new Decision(Verdict.MOVING, map, null, "bucket " + bucket + " moves to front-end "
            + self + " in " + map + "; its previous owner has not yet let go");
      }
      Admission a = new Admission(map.epoch(), request, replies);
      inFlight.add(a);
      return new Decision(Verdict.SERVE, map, a, null);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The tail's answer to a get: cached only while this front-end still serves its key. */
  void answered(HotCache.Key key, long stamp, HotCache.Entry answer) {
    lock.readLock().lock();
    try {
      cache.answered(key, stamp, answer, notReady == null
          && serves(map, map.bucketOf(key.bytes())));
    } finally {
      lock.readLock().unlock();
    }
  }

  SliceMap map() {
    lock.readLock().lock();
    try {
      return map;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** How many buckets it serves now (0 while not ready). */
  long bucketsServed() {
    lock.readLock().lock();
    try {
      if (notReady != null) {
        return 0;
      }
      long n = 0;
      for (int b = 0; b < SliceMap.BUCKETS; b++) {
        n += serves(map, b) ? 1 : 0;
      }
      return n;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Serves by {@code next} if newer; drops the keys it no longer serves, then drains. */
  void apply(SliceMap next) {
    lock.writeLock().lock();
    try {
      if (map != null && next.epoch() <= map.epoch()) {
        return;
      }
      map = next;
      cache.retainOnly(key -> serves(next, next.bucketOf(key)));
    } finally {
      lock.writeLock().unlock();
    }
    LOG.info("front-end {} serves by {}", self, next);
    drain(next.epoch(), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_LIMIT_MS));
  }

  /** From now on takes requests (by the map it has). */
  void open() {
    lock.writeLock().lock();
    try {
      if (map == null) {
        throw new IllegalStateException("front-end " + self + " has no slice map to serve by");
      }
      notReady = null;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Takes nothing more, forgets its cache and fails what is on its way (outcome unknown): its
   * slice may be given to another front-end before it hears of it again.
   */
  void suspend(String why) {
    lock.writeLock().lock();
    try {
      notReady = why;
      cache.clear();
    } finally {
      lock.writeLock().unlock();
    }
    for (Admission a : List.copyOf(inFlight)) {
      a.fail("front-end " + self + " " + why + " while this request was on its way; an"
          + " earlier try may have taken effect");
    }
  }

  private boolean serves(SliceMap m, int bucket) {
    return m.ownerOf(bucket).name().equals(self) && m.servable(bucket);
  }

  private void drain(long epoch, long deadlineNanos) {
    SliceMap current = map();
    if (current == null || current.epoch() != epoch) {
      return; // a newer epoch drains (and acknowledges) for itself
    }
    List<Admission> older = inFlight.stream().filter(a -> a.epoch < epoch).toList();
    if (!older.isEmpty() && System.nanoTime() < deadlineNanos) {
      schedule(() -> drain(epoch, deadlineNanos), DRAIN_POLL_MS);
      return;
    }
    for (Admission a : older) {
      a.fail("front-end " + self + ": its slice moved while this request was on its way for "
          + DRAIN_LIMIT_MS + " ms; it may have taken effect");
    }
    acknowledge(epoch);
  }

  private void acknowledge(long epoch) {
    SliceMap current = map();
    if (current == null || current.epoch() != epoch) {
      return;
    }
    try {
      acknowledger.acknowledge(epoch);
    } catch (IOException | RuntimeException e) {
      LOG.warn("front-end {} cannot acknowledge slice epoch {} yet: {}", self, epoch,
          e.getMessage());
      schedule(() -> acknowledge(epoch), ACK_RETRY_MS);
    }
  }

  private void schedule(Runnable task, long delayMs) {
    if (!timer.isShutdown()) {
      try {
        timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        LOG.debug("front-end {} closing: {} not run", self, task);
      }
    }
  }

  /** A request taken under one slice epoch; answered once, then no longer on its way. */
  final class Admission implements FrameServer.Replies {
    private final long epoch;
    private final Frame request;
    private final FrameServer.Replies replies;
    private final AtomicBoolean answered = new AtomicBoolean();

    private Admission(long epoch, Frame request, FrameServer.Replies replies) {
      this.epoch = epoch;
      this.request = request;
      this.replies = replies;
    }

    @Override
    public void send(Frame reply) {
      if (answered.compareAndSet(false, true)) {
        inFlight.remove(this);
        replies.send(reply);
      }
    }

    /** Answers ERROR (the outcome is unknown) unless answered already. */
    void fail(String message) {
      send(MessageType.error(request, message));
    }
  }
}
