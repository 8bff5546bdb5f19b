package org.fawnpack.kv.store;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.StampedLock;
import java.util.function.ToLongFunction;

/**
 * A datastore's current {@link IndexedLog} and the lock that guards its index, the only place
 * that touches that lock. Readers walk the index under an optimistic {@link StampedLock} stamp
 * ({@link #read}), falling back to its read lock only when a writer changed the index
 * meanwhile; writers change buckets under its write lock (one writer at a time: callers hold
 * the datastore's writer lock); growth, compaction and merge swap in a whole new pair
 * ({@link #swap}). Also whether the datastore is closed, which every caller asks together with
 * the current pair.
 */
final class CurrentLog {

  /** What {@link #read} returns when the pair it was given is no longer the current one. */
  static final long SWAPPED = Long.MIN_VALUE;

  private final StampedLock indexLock = new StampedLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile IndexedLog current;
  /** The range the file holds since a split narrowed it in place, else null (see holds()). */
  private volatile KeyRange holds;

  CurrentLog(IndexedLog initial) {
    this.current = initial;
  }

  /**
   * The range this open file holds since a split kept it in place and moved the rest out
   * ({@link SplitOff}); null when none did since it was opened. Set before the narrowed index
   * is swapped in, so a read that found no key by that index sees it afterwards.
   */
  KeyRange holds() {
    return holds;
  }

  void holdOnly(KeyRange range) {
    holds = range;
  }

  /** The current pair, closed or not. */
  IndexedLog get() {
    return current;
  }

  /**
   * The current pair of an open datastore.
   *
   * @throws IllegalStateException naming the file when the datastore is closed
   */
  IndexedLog open() {
    if (closed.get()) {
      throw new IllegalStateException(current.log().path() + " is closed");
    }
    return current;
  }

  boolean isClosed() {
    return closed.get();
  }

  /** Marks the datastore closed; false when it already was. */
  boolean markClosed() {
    return closed.compareAndSet(false, true);
  }

  /**
   * Runs {@code read} on the index of {@code g}: under an optimistic stamp, again under the
   * read lock when a writer changed the index meanwhile. {@link #SWAPPED} when {@code g} is no
   * longer current. {@code read} must tolerate a torn view (its first result is thrown away
   * when the stamp fails) and must not return {@link #SWAPPED}.
   */
  long read(IndexedLog g, ToLongFunction<HashIndex> read) {
    long stamp = indexLock.tryOptimisticRead();
    if (current != g) {
      return SWAPPED;
    }
    long result = read.applyAsLong(g.index());
    if (indexLock.validate(stamp)) {
      return result;
    }
    stamp = indexLock.readLock();
    try {
      return current != g ? SWAPPED : read.applyAsLong(g.index());
    } finally {
      indexLock.unlockRead(stamp);
    }
  }

  /** {@link #read} on whichever pair is current, retried across swaps. */
  long readCurrent(ToLongFunction<HashIndex> read) {
    while (true) {
      long result = read(current, read);
      if (result != SWAPPED) {
        return result;
      }
    }
  }

  /** Points bucket {@code slot} of {@code g}'s index at {@code offset}. */
  void repoint(IndexedLog g, int slot, long offset) {
    long stamp = indexLock.writeLock();
    try {
      g.index().repoint(slot, offset);
    } finally {
      indexLock.unlockWrite(stamp);
    }
  }

  /** Fills free bucket {@code bucket} of {@code g}'s index. */
  void insertAt(IndexedLog g, int bucket, long hash, long offset) {
    long stamp = indexLock.writeLock();
    try {
      g.index().insertAt(bucket, hash, offset);
    } finally {
      indexLock.unlockWrite(stamp);
    }
  }

  /** Invalidates bucket {@code slot} of {@code g}'s index. */
  void remove(IndexedLog g, int slot) {
    long stamp = indexLock.writeLock();
    try {
      g.index().remove(slot);
    } finally {
      indexLock.unlockWrite(stamp);
    }
  }

  /**
   * Inserts into {@code target} (g's index, or a grown copy of it) and, when it is a copy,
   * swaps it in with g's log; false when its chain is full (nothing changed).
   */
  boolean insertInto(IndexedLog g, HashIndex target, long hash, long offset) {
    long stamp = indexLock.writeLock();
    try {
      if (!target.insert(hash, offset)) {
        return false;
      }
      if (target != g.index()) {
        current = new IndexedLog(g.log(), target);
      }
      return true;
    } finally {
      indexLock.unlockWrite(stamp);
    }
  }

  /** Makes {@code next} the current pair. */
  void swap(IndexedLog next) {
    long stamp = indexLock.writeLock();
    try {
      current = next;
    } finally {
      indexLock.unlockWrite(stamp);
    }
  }

  /** Whether the record at {@code offset} is the key's current version. */
  boolean isLive(long hash, long offset) {
    return readCurrent(index -> index.pointsAt(hash, offset) ? 1 : 0) == 1;
  }

  /**
   * Sets {@code live[i]} to whether record i of the batch is a put its key's bucket points
   * at. The batch's buckets are touched first so that their cache misses overlap.
   */
  void liveRecords(RecordBatch batch, boolean[] live) {
    readCurrent(index -> {
      int sink = 0;
      for (int i = 0; i < batch.size(); i++) {
        sink += index.touch(batch.hash(i));
      }
      HashIndex.consume(sink);
      for (int i = 0; i < batch.size(); i++) {
        live[i] = batch.isPut(i) && index.pointsAt(batch.hash(i), batch.offset(i));
      }
      return 0;
    });
  }
}
