package org.fawnpack.kv.frontend;

import java.io.IOException;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.time.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which requests a front-end takes: those whose key's bucket it owns in its slice map, and not
 * while the bucket moves in a handover, while its ZooKeeper connection is suspended or its
 * {@link Lease} has run out (its slice may then be given away), nor, for a bucket it did not
 * serve by the map before, until every back-end is fenced at the new map's epoch ({@link
 * BackendFencing}). It tracks every request it took until answered, so that on a
 * new slice epoch it can say, once the older ones are answered, that it serves by that epoch
 * alone ({@link Acknowledger}); the coordinator lets new owners serve only after that. Its
 * lock makes taking a request (and a get's cache hit), filling the cache, renewing the lease
 * and switching maps atomic to one another.
 */
final class SliceGate {
  private static final Logger LOG = LoggerFactory.getLogger(SliceGate.class);

  /** Tells the coordinator this front-end serves by an epoch and no older one. */
  interface Acknowledger {
    void acknowledge(long epoch) throws IOException;
  }

  enum Verdict { SERVE, WRONG_SLICE, MOVING, NOT_READY }

  /**
   * What to do with a request: serve it through {@code admission} (a get from {@code hit} when
   * its key was cached), or answer why not.
   */
  record Decision(Verdict verdict, SliceMap map, Admission admission, HotCache.Entry hit,
      String reason) {}

  /** Fences the back-ends at a slice epoch, then calls {@link #fenced} (see BackendFencing). */
  interface Fencer {
    void fence(long sliceEpoch);
  }

  private final String self;
  private final HotCache cache;
  private final ScheduledExecutorService timer;
  private final Lease lease;
  private volatile Acknowledger acknowledger = epoch -> { };
  /** Between tries of an acknowledgement that failed ({@code fawn.kv.backoff.zookeeper.*}). */
  private volatile Backoff ackPauses = org.fawnpack.kv.time.Backoffs.DEFAULTS.zookeeper();
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Set<Admission> inFlight = ConcurrentHashMap.newKeySet();
  private final EpochDrains drains;
  /** Completed, and replaced, whenever what the gate lets through may have changed. */
  private final AtomicReference<CompletableFuture<Void>> changed =
      new AtomicReference<>(new CompletableFuture<>());
  private SliceMap map; // guarded by lock
  private String notReady = "has no slice map yet"; // guarded by lock; null when serving
  private Fencer fencer; // guarded by lock; null: nobody else serves (no fencing)
  /** Buckets it serves by its map but may not until the back-ends are fenced at fenceEpoch. */
  private final BitSet unfenced = new BitSet(SliceMap.BUCKETS); // guarded by lock
  private long fenceEpoch; // guarded by lock

  SliceGate(String self, HotCache cache, ScheduledExecutorService timer, Lease lease) {
    this.self = self;
    this.cache = cache;
    this.timer = timer;
    this.lease = lease;
    this.drains = new EpochDrains(self, timer, () -> {
      SliceMap m = map();
      return m == null ? -1 : m.epoch();
    }, epoch -> acknowledge(epoch, ackPauses.firstPauseMs()), EpochDrains.DRAIN_LIMIT_MS);
  }

  void acknowledgeThrough(Acknowledger acknowledger, Backoff pauses) {
    this.acknowledger = acknowledger;
    this.ackPauses = pauses;
  }

  /**
   * From now on a bucket it serves by a new map and did not serve by the one before (or any,
   * when epochs were skipped) waits until {@code fencer} fenced the back-ends at that map's
   * epoch: another front-end may have admitted writes to it that have not landed yet.
   */
  void fenceWith(Fencer fencer) {
    lock.writeLock().lock();
    try {
      this.fencer = fencer;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Takes the request for {@code key}, or says why not; a get's cache hit under the lease. */
  Decision admit(byte[] key, Frame request, FrameServer.Replies replies) {
    lock.readLock().lock();
    try {
      if (notReady != null) {
        return decline(Verdict.NOT_READY, "front-end " + self + " " + notReady);
      }
      if (!lease.held()) {
        return decline(Verdict.NOT_READY, "front-end " + self + " has not heard from ZooKeeper"
            + " in time (its lease ran out " + lease.lapsedMs() + " ms ago): its slice may have"
            + " moved; not applied");
      }
      int bucket = map.bucketOf(key);
      SliceMap.Endpoint owner = map.ownerOf(bucket);
      if (!owner.name().equals(self)) {
        return decline(Verdict.WRONG_SLICE, "front-end " + owner + " serves this key in " + map);
      }
      if (!map.servable(bucket)) {
        return decline(Verdict.MOVING, "bucket " + bucket + " moves to front-end " + self
            + " in " + map + "; its previous owner has not yet let go");
      }
      if (unfenced.get(bucket)) {
        return decline(Verdict.MOVING, "bucket " + bucket + " came to front-end " + self
            + " in " + map + "; the back-ends are not yet fenced at slice epoch " + fenceEpoch);
      }
      Admission a = new Admission(map.epoch(), request, replies);
      inFlight.add(a);
      HotCache.Entry hit = request.type() == MessageType.GET
          ? cache.lookup(HotCache.Key.of(key)) : null;
      return new Decision(Verdict.SERVE, map, a, hit, null);
    } finally {
      lock.readLock().unlock();
    }
  }

  private Decision decline(Verdict verdict, String reason) {
    return new Decision(verdict, map, null, null, reason);
  }

  /** The tail's answer to a get: cached only while this front-end still serves its key. */
  void answered(HotCache.Key key, long stamp, HotCache.Entry answer) {
    lock.readLock().lock();
    try {
      int bucket = map.bucketOf(key.bytes());
      cache.answered(key, stamp, answer, notReady == null && lease.held()
          && serves(map, bucket) && !unfenced.get(bucket));
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * ZooKeeper answered, in this front-end's current session, a request sent at {@code
   * sentAtNanos}: the lease holds until then plus {@code lengthNanos}. After a lapse the cache
   * is emptied first: its keys may have been written through another front-end meanwhile.
   */
  void renewLease(long sentAtNanos, long lengthNanos) {
    lock.writeLock().lock();
    try {
      if (!lease.held()) {
        cache.clear();
        long lapsed = lease.lapsedMs();
        if (lapsed >= 0) {
          LOG.warn("front-end {} serves again after {} ms without a lease (frozen, or cut off"
              + " from ZooKeeper); its cache was emptied", self, lapsed);
        }
      }
      lease.renew(sentAtNanos, lengthNanos);
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Whether buckets it serves by its map still wait for the back-ends' fence (refused). */
  boolean awaitsFence() {
    lock.readLock().lock();
    try {
      return !unfenced.isEmpty();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The back-ends are fenced at slice epoch {@code epoch}: buckets that waited for it serve. */
  void fenced(long epoch) {
    lock.writeLock().lock();
    try {
      if (epoch >= fenceEpoch) {
        unfenced.clear();
      }
    } finally {
      lock.writeLock().unlock();
    }
    signalChange();
  }

  /** Completes when what the gate lets through may next change (a map, a fence). */
  CompletableFuture<Void> nextChange() {
    return changed.get();
  }

  private void signalChange() {
    changed.getAndSet(new CompletableFuture<>()).complete(null);
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

  /** Serves by {@code next} if newer (drops keys lost, holds gained ones until fenced), drains. */
  void apply(SliceMap next) {
    Fencer fenceNow = null;
    lock.writeLock().lock();
    try {
      if (map != null && next.epoch() <= map.epoch()) {
        return;
      }
      SliceMap before = map;
      map = next;
      cache.retainOnly(key -> serves(next, next.bucketOf(key)));
      if (fencer != null) {
        BitSet gained = gained(before, next);
        if (!gained.isEmpty()) {
          unfenced.or(gained);
          fenceEpoch = next.epoch();
          fenceNow = fencer;
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
    signalChange();
    LOG.info("front-end {} serves by {}", self, next);
    if (fenceNow != null) {
      fenceNow.fence(next.epoch());
    }
    drains.start(next.epoch(), inFlight);
  }

  /**
   * The buckets it serves by {@code next} that another front-end may have served since {@code
   * before}: those it did not serve by it, or all of them when {@code next} does not follow it
   * directly (a map skipped may have given them away and back).
   */
  private BitSet gained(SliceMap before, SliceMap next) {
    BitSet gained = new BitSet(SliceMap.BUCKETS);
    boolean contiguous = before != null && next.epoch() == before.epoch() + 1;
    for (int b = 0; b < SliceMap.BUCKETS; b++) {
      if (serves(next, b) && !(contiguous && serves(before, b))) {
        gained.set(b);
      }
    }
    return gained;
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
      a.fail("front-end " + self + " " + why + " while this request was on its way"
          + (a.request.type() == MessageType.GET ? "" : "; it may have taken effect"));
    }
  }

  private boolean serves(SliceMap m, int bucket) {
    return m.ownerOf(bucket).name().equals(self) && m.servable(bucket);
  }

  private void acknowledge(long epoch, long pauseMs) {
    SliceMap current = map();
    if (current == null || current.epoch() != epoch) {
      return;
    }
    try {
      acknowledger.acknowledge(epoch);
    } catch (IOException | RuntimeException e) {
      LOG.warn("front-end {} cannot acknowledge slice epoch {} yet: {}", self, epoch,
          e.getMessage());
      schedule(() -> acknowledge(epoch, ackPauses.next(pauseMs)), pauseMs);
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
  final class Admission implements FrameServer.Replies, EpochDrains.OnItsWay {
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
        drains.answered(this);
        replies.send(reply);
      }
    }

    /** Answers ERROR (the outcome is unknown) unless answered already. */
    void fail(String message) {
      send(MessageType.error(request, message));
    }

    /** The slice epoch it was taken under (a write carries it to the chain's head). */
    @Override
    public long epoch() {
      return epoch;
    }

    @Override
    public boolean isAnswered() {
      return answered.get();
    }

    @Override
    public void failAfterDrainLimit(long limitMs) {
      fail("front-end " + self + ": its slice moved while this request was on its way for "
          + limitMs + " ms" + (request.type() == MessageType.GET ? ""
              : "; it may have taken effect"));
    }

    /**
     * No longer on its way, unanswered: it was not applied (a fenced head refused it) and is
     * admitted again, by the map of the moment, as a new request.
     */
    boolean release() {
      if (answered.compareAndSet(false, true)) {
        inFlight.remove(this);
        drains.answered(this);
        return true;
      }
      return false;
    }
  }
}
