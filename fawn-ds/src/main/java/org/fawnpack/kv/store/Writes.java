package org.fawnpack.kv.store;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A datastore's write path: one writer lock, the sequence numbers, and every append with the
 * index change that follows it (a put points the key's bucket at its record, a delete clears
 * it). Compaction, split, merge, sync and close take the same lock ({@link #lock()}) when they
 * must see no write half done. Owns the {@link SyncDriver}, whose flush reads the log and the
 * last sequence number under this lock.
 */
final class Writes {

  private final CurrentLog current;
  private final DatastoreConfig config;
  private final TestSeams.Hook seams;
  private final ReentrantLock lock = new ReentrantLock();
  /** Guarded by lock. */
  private final LogKeyCheck keyCheck = new LogKeyCheck();
  /** Guarded by lock. */
  private long nextSequence;
  private final SyncDriver sync;
  /** This datastore's place in its shared journal, or null when it forces itself. */
  private final JournalHandle journaled;

  Writes(CurrentLog current, DatastoreConfig config, TestSeams.Hook seams, long nextSequence) {
    this.current = current;
    this.config = config;
    this.seams = seams;
    this.nextSequence = nextSequence;
    this.sync = new SyncDriver(this::flushForSync,
        retired -> current.get().log() != retired && !current.isClosed(), nextSequence - 1);
    Journal journal = config.journal();
    this.journaled = journal == null ? null : sync.useJournal(journal, this::forceFileForJournal,
        current.get().log());
  }

  /**
   * The journal sealed a segment this datastore wrote to: forcing the file lets the segment go.
   * Skipped while maintenance holds the writer lock; maintenance forces when it ends.
   */
  private void forceFileForJournal() {
    try {
      if (!current.isClosed()) {
        sync.sync(false);
      }
    } catch (IOException e) {
      // The segment stays until a later force or the close; nothing durable depends on this.
      org.slf4j.LoggerFactory.getLogger(Writes.class).warn("{}: forcing for the journal: {}",
          current.get().log().path(), e.toString());
    }
  }

  /** After a successful close: the file holds every write, so the journal needs none of them. */
  void detachFromJournal() {
    if (journaled != null) {
      journaled.detach();
    }
  }

  ReentrantLock lock() {
    return lock;
  }

  SyncDriver sync() {
    return sync;
  }

  /** Appends a put and indexes it; returns its sequence number. */
  long put(byte[] key, byte[] value, long hash) throws IOException {
    lock.lock();
    try {
      return appendPut(openForWrite(), key, value, hash, nextSequence);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends a tombstone and clears the key's bucket. Returns the tombstone's sequence number,
   * or 0 when the key is absent and {@code evenIfAbsent} is false (nothing written then).
   */
  long delete(byte[] key, long hash, boolean evenIfAbsent) throws IOException {
    lock.lock();
    try {
      IndexedLog g = openForWrite();
      int slot = g.index().find(hash, keyCheck.of(g.log(), key));
      if (slot < 0 && !evenIfAbsent) {
        return 0;
      }
      return appendDelete(g, slot, key, nextSequence);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends a put under a sequence number a chain's head gave it. A number below the next one
   * was applied already (a predecessor resends what it is not sure arrived): false, nothing
   * written. Numbers may skip.
   */
  boolean putAt(byte[] key, byte[] value, long hash, long sequence) throws IOException {
    lock.lock();
    try {
      if (sequence < nextSequence) {
        return false;
      }
      appendPut(openForWrite(), key, value, hash, sequence);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends a tombstone under a sequence number a chain's head gave it; as {@link #putAt}, false
   * when that number was applied already. Written even for a key absent here, so the number is
   * in the log: durable like any other, and not handed out again after a reopen.
   */
  boolean deleteAt(byte[] key, long hash, long sequence) throws IOException {
    lock.lock();
    try {
      if (sequence < nextSequence) {
        return false;
      }
      IndexedLog g = openForWrite();
      appendDelete(g, g.index().find(hash, keyCheck.of(g.log(), key)), key, sequence);
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Appends and indexes a put numbered {@code sequence} (writer lock held). */
  private long appendPut(IndexedLog g, byte[] key, byte[] value, long hash, long sequence)
      throws IOException {
    int slot = g.index().findOrFree(hash, keyCheck.of(g.log(), key));
    journal(g, RecordFormat.KIND_PUT, key, value, sequence); // first: a refusal uses no number
    nextSequence = sequence + 1;
    long offset = g.log().append(RecordFormat.KIND_PUT, key, value, sequence);
    seams.reached(TestSeams.Seam.WRITE_APPENDED);
    place(g, slot, hash, offset);
    afterWrite(g, sequence);
    return sequence;
  }

  /** Appends a tombstone numbered {@code sequence}, clearing bucket {@code slot} if found. */
  private long appendDelete(IndexedLog g, int slot, byte[] key, long sequence)
      throws IOException {
    journal(g, RecordFormat.KIND_DELETE, key, new byte[0], sequence);
    nextSequence = sequence + 1;
    g.log().append(RecordFormat.KIND_DELETE, key, new byte[0], sequence);
    seams.reached(TestSeams.Seam.WRITE_APPENDED);
    if (slot >= 0) {
      current.remove(g, slot);
    }
    afterWrite(g, sequence);
    return sequence;
  }

  /**
   * Copies a write into the shared journal, if any, before its own log (writer lock held, so the
   * journal has each datastore's writes in sequence order); a failed journal refuses it here.
   */
  private void journal(IndexedLog g, byte kind, byte[] key, byte[] value, long sequence)
      throws IOException {
    if (journaled != null) {
      journaled.append(g.log(), kind, key, value, sequence);
    }
  }

  /** The current log for a write (writer lock held): first fails if a background sync failed. */
  private IndexedLog openForWrite() throws IOException {
    IndexedLog g = current.open();
    sync.throwBackgroundFailure(g.log().path().toString());
    return g;
  }

  private void afterWrite(IndexedLog g, long sequence) throws IOException {
    if (config.sync() == SyncPolicy.EVERY_WRITE) {
      g.log().sync();
      sync.advanceTo(sequence);
    }
  }

  /** Appends record i of the batch as it is (sequence kept, retagged) and indexes it. */
  void appendCopied(RecordBatch batch, int i) throws IOException {
    lock.lock();
    try {
      IndexedLog g = current.open();
      long hash = batch.hash(i);
      int slot = g.index().findOrFree(hash, keyCheck.of(g.log(), batch.buffer().array(),
          batch.keyArrayOffset(i), batch.keyLength(i)));
      long offset = appendUnindexed(g, batch, i);
      place(g, slot, hash, offset);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends record i of the batch without indexing it (a merge indexes a rebuilt index at
   * the end); the caller holds {@link #lock()}. Returns its offset.
   */
  long appendUnindexed(IndexedLog g, RecordBatch batch, int i) throws IOException {
    long offset = g.log().appendEncoded(batch.buffer(), batch.start(i), batch.length(i),
        batch.positionTag(i));
    nextSequence = Math.max(nextSequence, batch.sequence(i) + 1);
    return offset;
  }

  /**
   * Points the key's bucket at its new record: {@code slot} is what
   * {@link HashIndex#findOrFree} said before the append. Growth (a pass over the log) runs
   * outside the index lock, so reads go on meanwhile; only the swap takes it.
   */
  private void place(IndexedLog g, int slot, long hash, long offset) throws IOException {
    if (slot >= 0) {
      current.repoint(g, slot, offset);
      return;
    }
    if (slot < -1 && !g.index().full(config.loadFactor())) {
      current.insertAt(g, -2 - slot, hash, offset);
      return;
    }
    // A full chain below the load factor: a same-size rehash helps only if it frees buckets.
    HashIndex target = slot == -1 && g.index().deleted() == 0
        ? IndexBuilder.rehash(g.index(), g.log(), g.index().capacityBits() + 1, offset)
        : IndexBuilder.grown(g.index(), g.log(), config.loadFactor(), 1);
    // A rare full chain in the new index too: rebuild bigger, outside the index lock.
    while (!current.insertInto(g, target, hash, offset)) {
      target = IndexBuilder.rehash(target, g.log(), target.capacityBits() + 1, offset);
    }
  }

  /** The sequence number of the last write (0 when none). */
  long lastSequence() {
    lock.lock();
    try {
      return nextSequence - 1;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Refuses a wait for a write not made yet (it would never end), and any call once the
   * datastore is closed.
   */
  void checkWritten(long sequence) {
    current.open();
    long last = lastSequence();
    if (sequence > last) {
      throw new IllegalArgumentException(current.get().log().path() + ": sequence " + sequence
          + " has not been written (the last write is " + last + ")");
    }
  }

  /** The next sequence number; the caller holds {@link #lock()}. */
  long nextSequence() {
    return nextSequence;
  }

  /**
   * Makes the next sequence number at least {@code next}, in memory and in the log header: a
   * split or merge copies live records only, and the highest sequence numbers of the source
   * (tombstones, replaced values) must not be handed out again by its successors.
   */
  void continueSequencesAfter(long next) throws IOException {
    lock.lock();
    try {
      nextSequence = Math.max(nextSequence, next);
      current.open().log().raiseSequenceFloor(nextSequence);
    } finally {
      lock.unlock();
    }
  }

  /** The sync's flush: log, flush and last sequence read together under the writer lock. */
  private SyncDriver.Flushed flushForSync(boolean wait) throws IOException {
    if (wait) {
      lock.lock();
    } else if (!lock.tryLock()) {
      return null;
    }
    try {
      IndexedLog g = current.open();
      seams.reached(TestSeams.Seam.SYNC_LOG_CHOSEN);
      g.log().flush();
      return new SyncDriver.Flushed(g.log(), nextSequence - 1);
    } finally {
      lock.unlock();
    }
  }
}
