package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durability bookkeeping of one datastore: up to which sequence number writes are known to
 * be on the device, syncs, waiting for one's own write (group commit), and a failed background
 * sync kept for the next writer.
 *
 * <p>A sync picks its log, flushes it and reads the last sequence number all under the
 * datastore's writer lock ({@link Flusher}), so the log it forces holds every write it then
 * counts; the force runs outside the lock so writers go on meanwhile.
 */
final class SyncDriver {

  private static final Logger LOG = LoggerFactory.getLogger(SyncDriver.class);

  /** What a flush under the writer lock saw: the current log and the last sequence in it. */
  record Flushed(DataLog log, long lastSequence) {}

  /** Flushes the current log under the writer lock; null when told not to wait and it is busy. */
  @FunctionalInterface
  interface Flusher {
    Flushed flush(boolean wait) throws IOException;
  }

  private final Flusher flusher;
  /** Whether a log whose channel closed under a force was retired by a compaction. */
  private final Predicate<DataLog> retiredByCompaction;
  /** One force at a time for waiters: those queued behind it usually find their write covered. */
  private final ReentrantLock forceTurn = new ReentrantLock();
  private volatile long durableSequence;
  private volatile IOException backgroundFailure;
  /** Waiters for durability, lowest sequence first; guarded by itself. */
  private final PriorityQueue<Waiter> waiters = new PriorityQueue<>();
  /** A group force is queued or running; guarded by {@link #waiters}. */
  private boolean groupForceQueued;
  /** Set once, before any write: the shared journal's force makes writes durable instead. */
  private volatile JournalHandle journal;

  private record Waiter(long sequence, CompletableFuture<Void> done)
      implements Comparable<Waiter> {
    @Override
    public int compareTo(Waiter other) {
      return Long.compare(sequence, other.sequence);
    }
  }

  SyncDriver(Flusher flusher, Predicate<DataLog> retiredByCompaction, long durableSequence) {
    this.flusher = flusher;
    this.retiredByCompaction = retiredByCompaction;
    this.durableSequence = durableSequence;
  }

  long durableSequence() {
    return durableSequence;
  }

  /**
   * Writes are durable once {@code shared} is forced: {@link #whenDurable} waits for its force
   * pass, which calls {@link #advanceTo}; a force of the file itself is reported to it, so its
   * segments can go. {@code forceFile} forces the file when the journal asks.
   */
  JournalHandle useJournal(Journal shared, Runnable forceFile, DataLog opened) {
    JournalHandle h = shared.attach(this, forceFile, opened);
    journal = h;
    return h;
  }

  /** The journal's force failed: every waiter fails with it. */
  void failWaiters(IOException e) {
    List<Waiter> failed;
    synchronized (waiters) {
      failed = new ArrayList<>(waiters);
      waiters.clear();
    }
    failed.forEach(w -> w.done().completeExceptionally(e));
  }

  /** Records that every write up to {@code sequence} is on the device; completes its waiters. */
  void advanceTo(long sequence) {
    synchronized (this) {
      if (sequence > durableSequence) {
        durableSequence = sequence;
      }
    }
    List<Waiter> covered = new ArrayList<>();
    synchronized (waiters) {
      while (!waiters.isEmpty() && waiters.peek().sequence() <= durableSequence) {
        covered.add(waiters.poll());
      }
    }
    covered.forEach(w -> w.done().complete(null)); // outside the lock: callbacks send replies
  }

  /**
   * Completes once {@code sequence} (a write already made) is on the device: at once when it
   * is, else from the thread of the group force that covers it; exceptionally when that force
   * fails. The force runs on {@code forcers}; the caller never blocks.
   */
  CompletableFuture<Void> whenDurable(long sequence, Executor forcers) {
    if (durableSequence >= sequence) {
      return CompletableFuture.completedFuture(null);
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    JournalHandle shared = journal;
    if (shared != null) {
      synchronized (waiters) {
        waiters.add(new Waiter(sequence, done));
      }
      if (durableSequence >= sequence) { // a pass finished between the check and the add
        advanceTo(sequence);
      }
      shared.requestForce();
      return done;
    }
    boolean queue;
    synchronized (waiters) {
      waiters.add(new Waiter(sequence, done));
      queue = !groupForceQueued;
      groupForceQueued = true;
    }
    if (durableSequence >= sequence) { // a force finished between the check and the add
      advanceTo(sequence);
    }
    if (queue) {
      forcers.execute(this::forceForWaiters);
    }
    return done;
  }

  /** The group force: forces while waiters remain; a failure fails those waiting. */
  private void forceForWaiters() {
    while (true) {
      synchronized (waiters) {
        if (waiters.isEmpty()) {
          groupForceQueued = false;
          return;
        }
      }
      try {
        forceTurn.lock();
        try {
          sync(true); // completes the covered waiters (advanceTo)
        } finally {
          forceTurn.unlock();
        }
      } catch (IOException | RuntimeException e) {
        List<Waiter> failed;
        synchronized (waiters) {
          failed = new ArrayList<>(waiters);
          waiters.clear();
          groupForceQueued = false;
        }
        failed.forEach(w -> w.done().completeExceptionally(e));
        return;
      }
    }
  }

  /**
   * Flushes and forces the current log. With {@code wait} false a held writer lock (a split,
   * merge or compaction working for seconds) makes it return false at once: the interval sync
   * must not stall the one thread it shares with every datastore.
   */
  boolean sync(boolean wait) throws IOException {
    Flushed flushed = flusher.flush(wait);
    if (flushed == null) {
      return false;
    }
    try {
      flushed.log().forceData();
    } catch (ClosedChannelException e) {
      if (!retiredByCompaction.test(flushed.log())) {
        throw e;
      }
      // The compaction took the writer lock after our flush, so it copied every record counted
      // here into its new log and forced that before the swap.
    }
    advanceTo(flushed.lastSequence());
    JournalHandle shared = journal;
    if (shared != null) {
      shared.forcedThrough(flushed.lastSequence());
    }
    return true;
  }

  /** Returns once {@code sequence} (a write already made) is on the device. */
  void awaitDurable(long sequence) throws IOException {
    if (durableSequence >= sequence) {
      return;
    }
    forceTurn.lock();
    try {
      if (durableSequence < sequence) {
        sync(true);
      }
    } finally {
      forceTurn.unlock();
    }
  }

  /** The interval policy's tick: a failure is logged and kept for the next writer. */
  void syncInBackground(String store, BooleanSupplier closed) {
    try {
      // Skipped while maintenance holds the writers; it syncs when it ends, and so do we next.
      sync(false);
    } catch (IOException e) {
      if (closed.getAsBoolean()) {
        LOG.debug("{}: closed during a background sync", store);
        return;
      }
      LOG.error("{}: background sync failed; the next write will fail", store, e);
      backgroundFailure = e;
    }
  }

  /** Throws the failure of an earlier background sync: no write may succeed after one. */
  void throwBackgroundFailure(String store) throws IOException {
    IOException failure = backgroundFailure;
    if (failure != null) {
      throw new IOException(store + ": an earlier background sync failed", failure);
    }
  }
}
