package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;

/**
 * One arc a back-end stores: its chain and its FAWN-DS file, named by the arc's end position.
 * Writers hold its lock ({@link #lock}) from the append until the write is handed to the
 * successor's connection, so records leave in the order of their sequence numbers; a chain
 * change takes the same lock, so a resend of the sent list never interleaves with a new
 * forward. Splits, merges, snapshots and bulk applies hold it for long: a writer on an event
 * loop takes it only if it is free ({@link #holdForWrite}) and otherwise moves to a thread
 * that may wait.
 */
final class ArcStore implements AutoCloseable {
  private volatile Chain chain;
  /**
   * The ring epoch {@link #chain} is from. Chain messages carry their sender's and are taken
   * only on the same epoch: a member on another ring may see another chain (it would, say,
   * answer a write as its tail while the sender's ring has a member after it).
   */
  private volatile long epoch;
  private final Datastore store;
  private final SentList sent = new SentList();
  private final RecentWrites recent = new RecentWrites();
  /**
   * A copied arc does not serve gets until its predecessor's CHAIN_SYNC says it holds all the
   * predecessor had: the tail it replaced may have committed writes after the copy.
   */
  private volatile CompletableFuture<Void> synced = CompletableFuture.completedFuture(null);
  /** Guarded by the arc's lock: the successor still needs a CHAIN_SYNC (it is new, or one failed). */
  private boolean owesSync;
  /** A retry of failed sends is scheduled (set from reply threads, which must not block). */
  private final java.util.concurrent.atomic.AtomicInteger retriesInARow =
      new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicBoolean retryScheduled =
      new java.util.concurrent.atomic.AtomicBoolean();

  /** The lowest write a successor lacks that could not be resent, once logged. */
  private final java.util.concurrent.atomic.AtomicLong reportedGap =
      new java.util.concurrent.atomic.AtomicLong();

  /** Opened from a copy the ring has not yet let this member serve (it is still copying). */
  private volatile boolean copy;

  /**
   * The recent-writes table has seen every write of the arc (its file was new here): a retry
   * with an id it does not know was never applied. False for a file opened after a restart,
   * copied, or split off, whose earlier writes came without their ids, and from the first
   * write that arrives without its id (read back from a restarted predecessor's file).
   */
  private volatile boolean recentCoversAll;

  private final ReentrantLock lock = new ReentrantLock();

  private ArcStore(Chain chain, long epoch, Datastore store, boolean recentCoversAll) {
    this.chain = chain;
    this.epoch = epoch;
    this.store = store;
    this.recentCoversAll = recentCoversAll;
  }

  /** Takes the arc's lock, waiting while another thread holds it. */
  void lock() {
    lock.lock();
  }

  void unlock() {
    lock.unlock();
  }

  /**
   * Takes what one write needs. A writer that may block takes the arc's lock, waiting (the
   * store's writer lock it takes inside the write). One that must not (an event loop) takes the
   * arc's lock and its store's writer lock only if both are free, else neither, and gets
   * false: a compaction swaps its log under the writer lock without the arc's. Release with
   * {@link #releaseWrite} and the same {@code mayBlock}.
   */
  boolean holdForWrite(boolean mayBlock) {
    if (mayBlock) {
      lock.lock();
      return true;
    }
    if (!lock.tryLock()) {
      return false;
    }
    if (!store.tryHoldWriters()) {
      lock.unlock();
      return false;
    }
    return true;
  }

  void releaseWrite(boolean mayBlock) {
    if (!mayBlock) {
      store.releaseWriters();
    }
    lock.unlock();
  }

  boolean recentCoversAll() {
    return recentCoversAll;
  }

  /** Takes the table a copy of this arc came with (see {@link RecentWrites#encode}). */
  void adoptRecent(byte[] table) {
    recentCoversAll = recent.load(table);
  }

  /** A write came without its id: a retry this table does not know may have been applied. */
  void recentIncomplete() {
    recentCoversAll = false;
  }

  /** Opens the arc's file in {@code dir}, serving {@code chain} of ring epoch {@code epoch}. */
  static ArcStore open(Path dir, Chain chain, long epoch, DatastoreConfig config)
      throws IOException {
    Path file = fileOf(dir, chain.range().endInclusive());
    boolean fresh = !java.nio.file.Files.exists(file);
    return new ArcStore(chain, epoch, Datastore.open(file, config), fresh);
  }

  /** The file of the arc ending at {@code arcEnd} in {@code dir}. */
  static Path fileOf(Path dir, long arcEnd) {
    return dir.resolve("arc-" + String.format("%016x", arcEnd) + ".fds");
  }

  /** Opened from a finished copy, before the ring lets this member serve it. */
  void copied() {
    copy = true;
  }

  /** The ring has this member serve the arc. */
  void served() {
    copy = false;
  }

  boolean isCopy() {
    return copy;
  }

  /** True the first time gap {@code missing} is reported (so it is logged once). */
  boolean reportGapOnce(long missing) {
    return reportedGap.getAndSet(missing) != missing;
  }

  /** Completes when the arc may serve gets (at once, unless it is a fresh copy). */
  CompletableFuture<Void> synced() {
    return synced;
  }

  /** A fresh copy: gets wait for {@link #syncArrived}. */
  void awaitSync() {
    synced = new CompletableFuture<>();
  }

  void syncArrived() {
    synced.complete(null);
  }

  /**
   * The value of {@code engineKey} (null when absent) once the arc may serve gets: at once,
   * or for a fresh copy when CHAIN_SYNC arrives (failing with a TimeoutException after
   * {@code waitMs}).
   */
  CompletableFuture<byte[]> readWhenSynced(byte[] engineKey, long waitMs) {
    CompletableFuture<Void> ready = synced.isDone() ? synced
        : synced.copy().orTimeout(waitMs, java.util.concurrent.TimeUnit.MILLISECONDS);
    CompletableFuture<byte[]> value = new CompletableFuture<>();
    ready.whenComplete((ok, late) -> {
      if (late != null) {
        value.completeExceptionally(late); // the TimeoutException itself, not wrapped
        return;
      }
      try {
        value.complete(store.get(engineKey));
      } catch (java.io.IOException | RuntimeException e) {
        value.completeExceptionally(e);
      }
    });
    return value;
  }

  boolean owesSync() {
    return owesSync;
  }

  void owesSync(boolean owes) {
    owesSync = owes;
  }

  /**
   * Positive when no retry was scheduled yet (the caller schedules one): how many have been
   * in a row without a forward confirmed in between (1 for the first); else 0.
   */
  int claimRetry() {
    return retryScheduled.compareAndSet(false, true) ? retriesInARow.incrementAndGet() : 0;
  }

  /** A forward was confirmed: the next retry's pause starts from the first again. */
  void forwardConfirmed() {
    if (retriesInARow.get() != 0) {
      retriesInARow.set(0);
    }
  }

  void retryStarted() {
    retryScheduled.set(false);
  }

  Chain chain() {
    return chain;
  }

  /** The ring epoch of {@link #chain()}. */
  long epoch() {
    return epoch;
  }

  /**
   * The arc's chain in a newer epoch (the same range; members may have gone down). The caller
   * holds this arc's lock, under which chain messages compare epochs.
   */
  void useChain(Chain next, long nextEpoch) {
    if (!next.range().equals(chain.range())) {
      throw new IllegalArgumentException("arc " + chain.range() + " cannot take the chain of "
          + next.range());
    }
    chain = next;
    epoch = nextEpoch;
  }

  /** The writes applied here lately, by their clients' ids (to answer retries). */
  RecentWrites recent() {
    return recent;
  }

  SentList sent() {
    return sent;
  }

  Datastore store() {
    return store;
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
