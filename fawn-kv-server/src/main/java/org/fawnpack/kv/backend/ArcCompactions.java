package org.fawnpack.kv.backend;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.store.CompactionResult;
import org.fawnpack.kv.store.CompactionThrottle;
import org.fawnpack.kv.store.Datastore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A back-end's compactions: on its own thread, every {@code checkMs}, it picks the arc whose
 * file has the most estimated garbage, if past the ratio, and compacts it below a floor
 * ({@link Datastore#compactThrough}), its reads paced; then the next such arc, one at a time,
 * until none is past the ratio.
 *
 * <p>The floor is the lowest of: what every member after this one holds (the tail: what is
 * durable here; others: what the tail confirmed, {@link SentList#confirmedThrough}), as it was
 * {@code cutRetentionMs} ago ({@link CommittedHistory}: no cut a reader took since needs
 * anything below it), and the lowest cut of a scan kept open here. So a successor that lost
 * its connection, or a restarted member's successor, is always resent from records this file
 * still has, and a point-in-time read within the retention is answered exactly; an older cut
 * is refused by name ({@link ArcScans}).
 *
 * <p>Garbage is estimated without reading the file: a census (one paced pass over a view)
 * measures the bytes of the live records when an arc is first seen and after each of its
 * compactions; between censuses the live bytes are taken to scale with the live keys.
 */
final class ArcCompactions implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(ArcCompactions.class);

  /** What is known of one arc's file. */
  private static final class ArcState {
    final CommittedHistory committed = new CommittedHistory();
    long censusLiveBytes = -1;
    long censusLiveKeys;
    /** The floor of the last compaction, and the arc's last sequence number then. */
    long lastFloor;
    long lastSequenceAtCompaction;
  }

  private final String id;
  private final Map<Long, ArcStore> arcs;
  private final Supplier<Member> self;
  private final ArcScans scans;
  private final CompactionSettings settings;
  private final ScheduledExecutorService thread;
  /** Guarded by the compaction thread (its only user); weak: an arc closed is forgotten. */
  private final Map<ArcStore, ArcState> states = new WeakHashMap<>();
  private static final long MAX_NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  private volatile boolean closed;
  /** Ring changes under way: they may need an arc's maintenance lock at once (a split). */
  private final java.util.concurrent.atomic.AtomicInteger ringChanges =
      new java.util.concurrent.atomic.AtomicInteger();
  final LongAdder compactions = new LongAdder();
  final LongAdder bytesReclaimed = new LongAdder();

  ArcCompactions(String id, Map<Long, ArcStore> arcs, Supplier<Member> self, ArcScans scans,
      CompactionSettings settings) {
    this.id = id;
    this.arcs = arcs;
    this.self = self;
    this.scans = scans;
    this.settings = settings;
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-compaction-" + id);
      t.setDaemon(true);
      t.setPriority(Thread.MIN_PRIORITY);
      return t;
    });
    thread.scheduleWithFixedDelay(this::checkSafely, settings.checkMs(), settings.checkMs(),
        TimeUnit.MILLISECONDS);
  }

  private void checkSafely() {
    try {
      check();
    } catch (InterruptedIOException e) {
      LOG.debug("backend {}: compaction stopped", id);
    } catch (IOException | RuntimeException e) {
      // An arc closed under it (retired, split) or a disk error: tried again next check.
      LOG.warn("backend {}: a compaction check failed: {}", id, e.toString());
    }
  }

  /**
   * Compacts the arc most worth it, again and again while one is (each at most once per
   * check): one a check would let a busy back-end's arcs grow for arcs × check-ms between
   * compactions. The pacing bounds what it costs the disk.
   */
  void check() throws IOException {
    java.util.Set<ArcStore> done = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    while (!closed && ringChanges.get() == 0) {
      ArcStore compacted = compactTheWorst(done);
      if (compacted == null) {
        return;
      }
      done.add(compacted);
    }
  }

  /**
   * Samples every arc's committed point, then compacts the one most worth it, if any but
   * {@code skip}; returns it, or null.
   */
  private ArcStore compactTheWorst(java.util.Set<ArcStore> skip) throws IOException {
    long now = System.nanoTime();
    Member me = self.get();
    ArcStore best = null;
    double bestRatio = 0;
    long bestFloor = 0;
    for (ArcStore arc : arcs.values()) {
      if (skip.contains(arc)) {
        continue;
      }
      ArcState state = states.computeIfAbsent(arc, a -> new ArcState());
      if (!arc.chain().pending().isEmpty()) {
        continue; // a copier will ask for a snapshot, which waits for a compaction
      }
      long held = heldBySuccessors(arc, me);
      if (held <= 0) {
        continue;
      }
      state.committed.sample(now, held);
      long floor = Math.min(
          state.committed.committedBefore(now, settings.cutRetentionMs() * 1_000_000),
          scans.lowestCut(arc));
      // Worth it only once history left above the last floor has come below this one.
      if (floor <= state.lastFloor || floor < state.lastSequenceAtCompaction) {
        continue;
      }
      if (state.censusLiveBytes < 0) {
        census(arc, state);
      }
      double ratio = garbageRatio(arc.store(), state);
      if (ratio >= settings.garbageRatio() && ratio > bestRatio) {
        best = arc;
        bestRatio = ratio;
        bestFloor = floor;
      }
    }
    if (best != null) {
      compact(best, states.get(best), bestFloor, bestRatio);
    }
    return best;
  }

  /**
   * What every member after this one holds of the arc: 0 when this back-end does not serve
   * it (copying, or no longer a member) or it still waits for its predecessor's sync.
   */
  private static long heldBySuccessors(ArcStore arc, Member me) {
    Chain chain = arc.chain();
    if (me == null || !chain.members().contains(me) || arc.isCopy()
        || !arc.synced().isDone()) {
      return 0;
    }
    return chain.successorOf(me) == null ? arc.store().durableSequence()
        : arc.sent().confirmedThrough();
  }

  private static double garbageRatio(Datastore store, ArcState state) {
    long logBytes = store.stats().logBytes();
    if (logBytes <= 0) {
      return 0;
    }
    double live = state.censusLiveKeys == 0 ? 0
        : state.censusLiveBytes * ((double) store.size() / state.censusLiveKeys);
    return Math.max(0, 1 - live / logBytes);
  }

  private void census(ArcStore arc, ArcState state) throws IOException {
    long keys = arc.store().size();
    state.censusLiveBytes = arc.store().readView().liveRecordBytes(pace(arc));
    state.censusLiveKeys = keys;
  }

  private void compact(ArcStore arc, ArcState state, long floor, double ratio)
      throws IOException {
    long last = arc.store().lastSequence();
    LOG.info("backend {}: compacting arc {} below sequence {} (estimated garbage {}%)", id,
        arc.chain().range(), floor, Math.round(ratio * 100));
    CompactionResult result = arc.store().compactThrough(floor, pace(arc));
    state.lastFloor = floor;
    state.lastSequenceAtCompaction = last;
    compactions.increment();
    bytesReclaimed.add(Math.max(0, result.bytesBefore() - result.bytesAfter()));
    census(arc, state);
  }

  /**
   * Paces reads to {@code bytesPerSecond}: sleeps whenever they run ahead of it, in short
   * naps so that a closing back-end, a ring change or a copier of the arc (whose snapshot
   * needs the maintenance lock) stops it soon. (Not by interrupting the thread: an
   * interrupt during a read closes the file channel, which the datastore shares.)
   */
  private CompactionThrottle pace(ArcStore arc) {
    long started = System.nanoTime();
    double[] passed = {0};
    return bytes -> {
      if (closed || ringChanges.get() > 0 || !arc.chain().pending().isEmpty()) {
        throw new InterruptedIOException("backend " + id + (closed ? " closes"
            : ringChanges.get() > 0 ? " takes a new ring" : ": a member copies arc "
            + arc.chain().range()) + ": compaction abandoned (tried again later)");
      }
      passed[0] += bytes;
      long dueNanos = (long) (passed[0] * 1e9 / settings.bytesPerSecond());
      long aheadNanos = dueNanos - (System.nanoTime() - started);
      while (aheadNanos > 1_000_000 && !closed && ringChanges.get() == 0) {
        long nap = Math.min(aheadNanos, MAX_NAP_NANOS);
        java.util.concurrent.locks.LockSupport.parkNanos(nap);
        aheadNanos -= nap;
      }
    };
  }

  /**
   * A ring change is about to split, retire or reopen arc files: a running compaction or
   * census stops at its next paced step and gives the arc's maintenance lock back, and none
   * starts until {@link #ringChangeEnds}.
   */
  void ringChangeStarts() {
    ringChanges.incrementAndGet();
  }

  void ringChangeEnds() {
    ringChanges.decrementAndGet();
  }

  @Override
  public void close() {
    closed = true;
    thread.shutdown();
    try {
      if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("backend {}: a compaction still runs 30 s after close began", id);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
