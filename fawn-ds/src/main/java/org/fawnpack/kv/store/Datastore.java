package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A FAWN-DS datastore: one key range in one append-only data log, with a DRAM hash index of
 * 6 bytes per bucket. A get costs one log read (two in about 1 of 32,768 fragment matches).
 *
 * <pre>{@code
 * try (Datastore ds = Datastore.open(Path.of("range-0.fds"), DatastoreConfig.defaults())) {
 *   long seq = ds.put(key, value);
 *   ds.awaitDurable(seq);          // this write is on the device
 *   byte[] v = ds.get(key);        // null when absent
 *   ds.delete(key);
 * }
 * }</pre>
 *
 * <p>Moving key ranges between datastores (split, split in place, merge, absorb) is
 * {@link RangeMoves}'s.
 *
 * <p>Concurrency: any number of threads may call any method. Writes (put, delete, and the
 * appends of split and merge) are serialised by one writer lock per datastore ({@link Writes}).
 * Reads take no lock ({@link KeyLookup}): they walk the index under an optimistic stamp
 * ({@link CurrentLog}) and then read the immutable record from the log. Compaction
 * ({@link Compactor}), scan, split and merge ({@link RangeMover}) are serialised by a
 * maintenance lock ({@link MaintenanceLock}); compaction lets reads and writes go on and swaps
 * the new log and index in at once. {@link #close()} is idempotent; after it, every call that
 * reads, writes, scans, compacts or syncs, and every move of it, throws
 * {@link IllegalStateException} naming the file, while {@link #path}, {@link #config},
 * {@link #recoveryReport}, {@link #size}, {@link #stats}, {@link #lastSequence} and
 * {@link #durableSequence} still describe the closed store.
 *
 * <p>Durability: see {@link SyncPolicy} and {@link SyncDriver}. Opening and recovery:
 * {@link DatastoreLoader}, {@link LogRecovery}; the file format: {@link DataLog},
 * {@link RecordFormat}, {@link HashIndex}, {@link IndexCheckpoint}, {@link StoreFiles}.
 */
public final class Datastore implements AutoCloseable {

  private static final AtomicLong IDS = new AtomicLong();

  /** Receives each live entry of a scan. */
  @FunctionalInterface
  public interface EntryVisitor {
    void accept(byte[] key, byte[] value) throws IOException;
  }

  /** Receives each record of {@link #recordsFrom}: a put, or a delete (value null). */
  @FunctionalInterface
  public interface RecordVisitor {
    void accept(long sequence, byte[] key, byte[] value) throws IOException;
  }

  /** Creation order: the order in which moves between two datastores lock them. */
  private final long id = IDS.incrementAndGet();
  private final DatastoreConfig config;
  private final RecoveryReport recovery;
  private final MaintenanceLock maintenance = new MaintenanceLock();
  private final TestSeams.Hook seams = new TestSeams.Hook();
  private final long recordsThroughAtOpen;
  private final CurrentLog current;
  private final Writes writes;
  private final KeyLookup lookup;
  private final ScheduledFuture<?> syncTask;

  /** Over a loaded file; {@link JournalReplay} loads its own with the journal's cut rule. */
  Datastore(DatastoreLoader.Loaded loaded, DatastoreConfig config) {
    this.config = config;
    this.recovery = loaded.recovered().report();
    this.recordsThroughAtOpen = loaded.recovered().recordsThrough();
    this.current = new CurrentLog(new IndexedLog(loaded.log(), loaded.recovered().index()));
    this.writes = new Writes(current, config, seams, loaded.recovered().nextSequence());
    this.lookup = new KeyLookup(current);
    this.syncTask = SyncScheduler.intervalSyncs(config, current, writes.sync());
  }

  /**
   * Opens the datastore in {@code path}, creating an empty one when the file does not exist.
   * An existing file is recovered: see {@link #recoveryReport()}.
   *
   * @throws DatastoreLockedException when the file is already open, here or in another process
   * @throws CorruptLogException when the file header is not a FAWN-DS header
   * @throws IOException when the file cannot be read or written
   */
  public static Datastore open(Path path, DatastoreConfig config) throws IOException {
    return new Datastore(DatastoreLoader.load(path, config), config);
  }

  public Path path() {
    return current.get().log().path();
  }

  /** The id in the current log's header (a compaction's new log has a new one). */
  long logId() {
    return current.get().log().logId();
  }

  public DatastoreConfig config() {
    return config;
  }

  /**
   * The highest sequence number the file was found to hold when opened: its last record's, or
   * its index checkpoint's; not its header's floor, which a file cut short after a compaction
   * would still claim (0 for a new file). What a member reports of a file it may recover an
   * arc from.
   */
  public long recordsThroughAtOpen() {
    return recordsThroughAtOpen;
  }

  public RecoveryReport recoveryReport() {
    return recovery;
  }

  /**
   * Stores {@code value} under {@code key}, replacing any earlier value.
   *
   * @return the write's sequence number: it is durable once {@link #durableSequence()} reaches
   *     it ({@link #awaitDurable} waits for that)
   * @throws IllegalArgumentException when the key is empty or over 64 KiB, or the value over
   *     16 MiB
   */
  public long put(byte[] key, byte[] value) throws IOException {
    RecordFormat.checkKey(key);
    RecordFormat.checkValue(value);
    return writes.put(key, value, KeyHash.of(key));
  }

  /**
   * Removes {@code key}: appends a tombstone and invalidates its bucket.
   *
   * @return whether the key was present (when it was, {@link #lastSequence()} read by the same
   *     single writer is the tombstone's sequence number)
   */
  public boolean delete(byte[] key) throws IOException {
    RecordFormat.checkKey(key);
    return writes.delete(key, KeyHash.of(key), false) != 0;
  }

  /**
   * Appends a tombstone for {@code key} whether or not it is present and returns its sequence
   * number. A chain's head deletes this way: even "absent" must travel the chain before it is
   * answered, or the head would answer from writes the tail has not committed.
   */
  public long tombstone(byte[] key) throws IOException {
    RecordFormat.checkKey(key);
    return writes.delete(key, KeyHash.of(key), true);
  }

  /**
   * Stores a put under the sequence number a chain's head gave it (replicas store every record
   * with the head's number, so a chain's files agree record by record).
   *
   * @return false when {@code sequence} is below {@link #lastSequence()} + 1: applied already
   *     (a resend), nothing written
   * @throws IllegalArgumentException as {@link #put}, or when {@code sequence} is not positive
   */
  public boolean putAt(byte[] key, byte[] value, long sequence) throws IOException {
    RecordFormat.checkKey(key);
    RecordFormat.checkValue(value);
    RecordFormat.checkSequence(sequence);
    return writes.putAt(key, value, KeyHash.of(key), sequence);
  }

  /**
   * Stores a delete under the sequence number a chain's head gave it: a tombstone, written even
   * when the key is absent here, so the number is durable. False when applied already.
   */
  public boolean deleteAt(byte[] key, long sequence) throws IOException {
    RecordFormat.checkKey(key);
    RecordFormat.checkSequence(sequence);
    return writes.deleteAt(key, KeyHash.of(key), sequence);
  }

  /** The value stored under {@code key}, or null. */
  public byte[] get(byte[] key) throws IOException {
    RecordFormat.checkKey(key);
    return lookup.value(key);
  }

  public boolean contains(byte[] key) throws IOException {
    RecordFormat.checkKey(key);
    return lookup.found(key) != null;
  }

  /**
   * Visits every live entry in log order; stale versions and deleted keys are skipped by the
   * index check. Writes may go on: an entry written during the scan may or may not be seen.
   */
  public void scan(EntryVisitor visitor) throws IOException {
    maintenance.run(() -> LogReads.liveEntries(current, visitor));
  }

  /**
   * Visits every record, stale or not, whose sequence number is at least {@code fromSequence},
   * in sequence order: puts with their value, deletes with null. A compaction drops superseded
   * records and tombstones, so the numbers seen may have gaps.
   */
  public void recordsFrom(long fromSequence, RecordVisitor visitor) throws IOException {
    maintenance.run(() -> LogReads.recordsFrom(current, fromSequence, visitor));
  }

  /**
   * Its live entries now, to read while writes go on ({@link StoreView}): copies the index.
   * Taken without waiting for a running compaction (which may take minutes when paced): a
   * compaction that swaps the log afterwards closes the old one, and the view's next read
   * fails with a {@link java.nio.channels.ClosedChannelException}; take a new view then.
   */
  public StoreView readView() throws IOException {
    return StoreView.take(current, writes);
  }

  /**
   * A snapshot of this datastore for whole-file transfer, its files at {@code target} (a new
   * path on the same file system) and beside it: see {@link LogSnapshot}. Writes wait only
   * while the index checkpoint is written; reads go on.
   *
   * @throws java.nio.file.FileAlreadyExistsException when {@code target} exists
   */
  public LogSnapshot snapshotTo(Path target) throws IOException {
    return maintenance.run(() -> LogSnapshot.take(current, writes, target));
  }

  /**
   * Rewrites the live records into a new log and swaps it in. Reads and writes go on meanwhile;
   * writes wait only while the records appended during the copy are carried over.
   */
  public CompactionResult compact() throws IOException {
    return maintenance.run(() -> Compactor.compact(current, writes, config, seams));
  }

  /**
   * Like {@link #compact}, for a chain member: drops only history numbered up to
   * {@code floor} (superseded puts, and deletes with what they deleted) and copies every record
   * above it as it is; the copy's reads are paced by {@code throttle}. Afterwards views refuse
   * cuts below the floor ({@link StoreView#historyFrom}).
   *
   * @throws IllegalArgumentException when {@code floor} is negative
   */
  public CompactionResult compactThrough(long floor, CompactionThrottle throttle)
      throws IOException {
    if (floor < 0) {
      throw new IllegalArgumentException(path() + ": a compaction floor is a sequence number,"
          + " not " + floor);
    }
    return maintenance.run(() -> Compactor.compact(current, writes, config, seams, floor,
        throttle));
  }

  /**
   * The lowest cut a point-in-time read of this datastore can be served at: history below it
   * was dropped by a compaction, split or merge (0 when none was).
   */
  public long historyFrom() {
    return StoreView.historyFrom(current.get().log());
  }

  /** Forces everything appended so far to the device. */
  public void sync() throws IOException {
    current.open();
    writes.sync().sync(true);
  }

  /**
   * Returns once the write with sequence number {@code sequence} (as {@link #put} returned it)
   * is on the device: at once when it already is, else after a sync. Concurrent callers share
   * one force where they can (group commit), so many writer threads that each wait for their
   * own write cost about one force per round, not one each.
   *
   * @throws IllegalArgumentException when no write with that sequence number was made yet
   */
  public void awaitDurable(long sequence) throws IOException {
    writes.checkWritten(sequence);
    writes.sync().awaitDurable(sequence);
  }

  /**
   * Completes once write {@code sequence} is on the device, and never blocks the caller: at
   * once when it is, else from the group force that covers it (one force for every write made
   * before it, on threads of its own: {@link SyncDriver}); exceptionally when that force
   * fails. What an event loop waits on instead of {@link #awaitDurable}.
   *
   * @throws IllegalArgumentException when no write with that sequence number was made yet
   */
  public CompletableFuture<Void> whenDurable(long sequence) {
    writes.checkWritten(sequence);
    return writes.sync().whenDurable(sequence, LogWriters.forcers());
  }

  /**
   * Takes the writer lock unless someone holds it (a compaction's swap, a split or merge, a
   * sync's flush), for a caller that must not block (an event loop): it writes while holding
   * it, else goes to a thread that may wait. Reentrant; released by {@link #releaseWriters}.
   */
  public boolean tryHoldWriters() {
    return writes.lock().tryLock();
  }

  /** Releases what {@link #tryHoldWriters} took. */
  public void releaseWriters() {
    writes.lock().unlock();
  }

  /** Where a maintenance pass run elsewhere in the package tells this store's test seams. */
  void reached(TestSeams.Seam seam) {
    seams.reached(seam);
  }

  /** Installs test seams (tests only). */
  void seams(TestSeams testSeams) {
    seams.install(testSeams);
  }

  /** The highest sequence number known to be on the device. */
  public long durableSequence() {
    return writes.sync().durableSequence();
  }

  /** The sequence number of the last write (0 when none). */
  public long lastSequence() {
    return writes.lastSequence();
  }

  public long size() {
    return current.get().index().live();
  }

  public DatastoreStats stats() {
    IndexedLog g = current.get();
    return new DatastoreStats(g.index().live(), g.index().deleted(), g.index().capacity(),
        (long) g.index().capacity() * HashIndex.BUCKET_BYTES, g.log().size(),
        lookup.logReads(), lookup.falsePositives(), lastSequence(), durableSequence());
  }

  long id() {
    return id;
  }

  ReentrantLock maintenanceLock() {
    return maintenance.lock();
  }

  CurrentLog current() {
    return current;
  }

  Writes writes() {
    return writes;
  }

  /**
   * Syncs, writes the index checkpoint (when enabled) and closes the file. Idempotent; each
   * step runs even when an earlier one failed, and the first failure is thrown.
   */
  @Override
  public void close() throws IOException {
    if (current.markClosed()) {
      FinalSync.close(current, writes, config, maintenance.lock(), syncTask);
    }
  }

  @Override
  public String toString() {
    return "Datastore[" + path() + ", " + size() + " keys]";
  }
}
