package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A FAWN-DS datastore: one key range in one append-only data log, with a DRAM hash index of
 * 6 bytes per bucket. A get costs one log read (two in about 1 of 32,768 fragment matches).
 *
 * <pre>{@code
 * try (Datastore ds = Datastore.open(Path.of("range-0.fds"), DatastoreConfig.defaults())) {
 *   ds.put(key, value);
 *   byte[] v = ds.get(key);        // null when absent
 *   ds.delete(key);
 * }
 * }</pre>
 *
 * <p>Concurrency: any number of threads may call any method. Writes (put, delete, and the
 * appends of split and merge) are serialised by one writer lock per datastore. Reads take no
 * lock: they probe the index under an optimistic {@link StampedLock} stamp (falling back to its
 * read lock only when a writer changed the index meanwhile) and then read the immutable record
 * from the log. Compaction, split and merge are serialised by a maintenance lock; compaction
 * lets reads and writes go on and swaps the new log and index in atomically. {@link #close()}
 * is idempotent; any other call after it throws {@link IllegalStateException}.
 *
 * <p>Durability: see {@link SyncPolicy}. Recovery on open: see {@link LogRecovery}; the file
 * format: {@link DataLog}, {@link RecordFormat}, {@link HashIndex}, {@link IndexCheckpoint}.
 */
public final class Datastore implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Datastore.class);
  private static final AtomicLong IDS = new AtomicLong();

  /** The log and the index that describes it, swapped together. */
  private record Generation(DataLog log, HashIndex index) {}

  /** Receives each live entry of a scan. */
  @FunctionalInterface
  public interface EntryVisitor {
    void accept(byte[] key, byte[] value) throws IOException;
  }

  /** The two datastores a split made; both open. */
  public record SplitResult(Datastore lower, Datastore upper) {}

  /** Log sizes before and after a compaction and the live records kept. */
  public record CompactionResult(long bytesBefore, long bytesAfter, long liveRecords) {}

  private final long id = IDS.incrementAndGet();
  private final DatastoreConfig config;
  private final RecoveryReport recovery;
  private final StampedLock indexLock = new StampedLock();
  private final ReentrantLock writerLock = new ReentrantLock();
  private final ReentrantLock maintenanceLock = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final LongAdder logReads = new LongAdder();
  private final LongAdder falsePositives = new LongAdder();
  /** Guarded by writerLock. */
  private final LogKeyCheck writerKeyCheck = new LogKeyCheck();
  private volatile Generation generation;
  /** Guarded by writerLock. */
  private long nextSequence;
  private final SyncDriver syncDriver;
  private final ScheduledFuture<?> syncTask;
  private volatile TestSeams seams = TestSeams.NONE;

  private Datastore(DataLog log, LogRecovery.Result recovered, DatastoreConfig config) {
    this.config = config;
    this.generation = new Generation(log, recovered.index());
    this.nextSequence = recovered.nextSequence();
    this.syncDriver = new SyncDriver(this::flushForSync,
        retired -> generation.log() != retired && !closed.get(), recovered.nextSequence() - 1);
    this.recovery = recovered.report();
    this.syncTask = config.sync() == SyncPolicy.INTERVAL
        ? SyncScheduler.executor().scheduleWithFixedDelay(this::syncInBackground,
            config.syncIntervalMs(), config.syncIntervalMs(), TimeUnit.MILLISECONDS)
        : null;
  }

  /**
   * Opens the datastore in {@code path}, creating an empty one when the file does not exist.
   * An existing file is recovered: see {@link #recoveryReport()}.
   *
   * @throws CorruptLogException when the file header is not a FAWN-DS header
   * @throws IOException when the file cannot be read or written
   */
  public static Datastore open(Path path, DatastoreConfig config) throws IOException {
    boolean exists = Files.exists(path);
    // The log is opened (and so locked) first: the leftovers below may belong to a store that
    // another process has open, and are touched only once this one owns the file.
    DataLog log = exists
        ? DataLog.open(path, config.writeBufferBytes(), config.writebackBytes())
        : DataLog.create(path, config.writeBufferBytes(), config.writebackBytes());
    try {
      Path leftover = compactingPath(path);
      if (Files.deleteIfExists(leftover)) {
        LOG.warn("{}: deleted an unfinished compaction output {}", path, leftover);
      }
      if (exists) {
        return new Datastore(log, LogRecovery.recover(log, config), config);
      }
      IndexCheckpoint.delete(path);
      HashIndex index = new HashIndex(HashIndex.bitsFor(config.expectedKeys(),
          config.loadFactor()));
      return new Datastore(log, new LogRecovery.Result(index, 1,
          RecoveryReport.empty()), config);
    } catch (IOException | RuntimeException e) {
      log.close();
      throw e;
    }
  }

  private static Path compactingPath(Path path) {
    return path.resolveSibling(path.getFileName() + ".compacting");
  }

  public Path path() {
    return generation.log().path();
  }

  public DatastoreConfig config() {
    return config;
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
    long hash = KeyHash.of(key);
    writerLock.lock();
    try {
      Generation g = liveGeneration();
      syncDriver.throwBackgroundFailure(g.log().path().toString());
      int slot = g.index().findOrFree(hash, writerKeyCheck.of(g.log(), key));
      long sequence = nextSequence++;
      long offset = g.log().append(RecordFormat.KIND_PUT, key, value, sequence);
      seams.reached(TestSeams.Seam.WRITE_APPENDED);
      place(g, slot, hash, offset);
      afterWrite(sequence);
      return sequence;
    } finally {
      writerLock.unlock();
    }
  }

  /**
   * Points the key's bucket at its new record: {@code slot} is what
   * {@link HashIndex#findOrFree} said before the append. Growth (a pass over the log) runs
   * outside the index lock, so reads go on meanwhile; only the swap takes it.
   */
  private void place(Generation g, int slot, long hash, long offset) throws IOException {
    if (slot >= 0 || (slot < -1 && !g.index().full(config.loadFactor()))) {
      long stamp = indexLock.writeLock();
      try {
        if (slot >= 0) {
          g.index().repoint(slot, offset);
        } else {
          g.index().insertAt(-2 - slot, hash, offset);
        }
      } finally {
        indexLock.unlockWrite(stamp);
      }
      return;
    }
    // A full chain below the load factor: a same-size rehash helps only if it frees buckets.
    HashIndex grown = slot == -1 && g.index().deleted() == 0
        ? IndexBuilder.rehash(g.index(), g.log(), g.index().capacityBits() + 1, offset)
        : IndexBuilder.grown(g.index(), g.log(), config.loadFactor(), 1);
    insertNew(g, grown, hash, offset);
  }

  /** Inserts under the index lock; a rare full chain is rebuilt outside it first. */
  private void insertNew(Generation g, HashIndex index, long hash, long offset)
      throws IOException {
    HashIndex target = index;
    while (true) {
      long stamp = indexLock.writeLock();
      try {
        if (target.insert(hash, offset)) {
          if (target != g.index()) {
            generation = new Generation(g.log(), target);
          }
          return;
        }
      } finally {
        indexLock.unlockWrite(stamp);
      }
      target = IndexBuilder.rehash(target, g.log(), target.capacityBits() + 1, offset);
    }
  }

  /**
   * Removes {@code key}: appends a tombstone and invalidates its bucket.
   *
   * @return whether the key was present
   */
  public boolean delete(byte[] key) throws IOException {
    RecordFormat.checkKey(key);
    long hash = KeyHash.of(key);
    writerLock.lock();
    try {
      Generation g = liveGeneration();
      syncDriver.throwBackgroundFailure(g.log().path().toString());
      int slot = g.index().find(hash, writerKeyCheck.of(g.log(), key));
      if (slot < 0) {
        return false;
      }
      long sequence = nextSequence++;
      g.log().append(RecordFormat.KIND_DELETE, key, new byte[0], sequence);
      seams.reached(TestSeams.Seam.WRITE_APPENDED);
      long stamp = indexLock.writeLock();
      try {
        g.index().remove(slot);
      } finally {
        indexLock.unlockWrite(stamp);
      }
      afterWrite(sequence);
      return true;
    } finally {
      writerLock.unlock();
    }
  }

  private void afterWrite(long sequence) throws IOException {
    if (config.sync() == SyncPolicy.EVERY_WRITE) {
      generation.log().sync();
      syncDriver.advanceTo(sequence);
    }
  }

  /** The value stored under {@code key}, or null. */
  public byte[] get(byte[] key) throws IOException {
    ByteBuffer record = lookup(key);
    if (record == null) {
      return null;
    }
    int keyLength = RecordFormat.keyLength(record, 0);
    return RecordFormat.copy(record, RecordFormat.HEADER_BYTES + keyLength,
        RecordFormat.valueLength(record, 0));
  }

  public boolean contains(byte[] key) throws IOException {
    return lookup(key) != null;
  }

  /** The record holding {@code key} (in a per-thread buffer), or null. Takes no lock. */
  private ByteBuffer lookup(byte[] key) throws IOException {
    RecordFormat.checkKey(key);
    long hash = KeyHash.of(key);
    while (true) {
      Generation g = liveGeneration();
      try {
        ByteBuffer found = lookupIn(g, key, hash);
        if (found != null || generation == g) {
          return found;
        }
      } catch (ClosedChannelException e) {
        // Compaction retired this log under us: retry on the new one. Anything else is real.
        if (closed.get()) {
          throw new IllegalStateException(g.log().path() + " is closed", e);
        }
        if (generation == g) {
          throw e;
        }
      }
    }
  }

  /** The index walk; null when the key is absent or the generation changed mid-walk. */
  private ByteBuffer lookupIn(Generation g, byte[] key, long hash) throws IOException {
    int step = 0;
    while (true) {
      long stamp = indexLock.tryOptimisticRead();
      if (generation != g) {
        return null;
      }
      int found = g.index().nextCandidateStep(hash, step);
      long offset = found < 0 ? -1 : g.index().offset(g.index().slotAt(hash, found));
      if (!indexLock.validate(stamp)) {
        stamp = indexLock.readLock();
        try {
          if (generation != g) {
            return null;
          }
          found = g.index().nextCandidateStep(hash, step);
          offset = found < 0 ? -1 : g.index().offset(g.index().slotAt(hash, found));
        } finally {
          indexLock.unlockRead(stamp);
        }
      }
      if (found < 0) {
        return null;
      }
      logReads.increment();
      ByteBuffer record = RecordReader.read(g.log(), offset);
      if (RecordFormat.keyEquals(record, 0, key)) {
        return record;
      }
      falsePositives.increment();
      step = found + 1;
    }
  }

  /** Whether the record at {@code offset} is the key's current version. */
  private boolean isLive(long hash, long offset) {
    long stamp = indexLock.tryOptimisticRead();
    boolean live = generation.index().pointsAt(hash, offset);
    if (indexLock.validate(stamp)) {
      return live;
    }
    stamp = indexLock.readLock();
    try {
      return generation.index().pointsAt(hash, offset);
    } finally {
      indexLock.unlockRead(stamp);
    }
  }

  /**
   * Sets {@code live[i]} to whether record i of the batch is a put its key's bucket points
   * at. The batch's buckets are touched first so that their cache misses overlap.
   */
  private void liveRecords(RecordBatch batch, boolean[] live) {
    long stamp = indexLock.tryOptimisticRead();
    liveRecords(generation.index(), batch, live);
    if (indexLock.validate(stamp)) {
      return;
    }
    stamp = indexLock.readLock();
    try {
      liveRecords(generation.index(), batch, live);
    } finally {
      indexLock.unlockRead(stamp);
    }
  }

  private static void liveRecords(HashIndex index, RecordBatch batch, boolean[] live) {
    int sink = 0;
    for (int i = 0; i < batch.size(); i++) {
      sink += index.touch(batch.hash(i));
    }
    HashIndex.consume(sink);
    for (int i = 0; i < batch.size(); i++) {
      live[i] = batch.isPut(i) && index.pointsAt(batch.hash(i), batch.offset(i));
    }
  }

  /**
   * Visits every live entry in log order; stale versions and deleted keys are skipped by the
   * index check. Writes may go on: an entry written during the scan may or may not be seen.
   */
  public void scan(EntryVisitor visitor) throws IOException {
    maintenanceLock.lock();
    try {
      Generation g = liveGeneration();
      g.log().flush();
      LogScanner scanner = scanner(g.log(), DataLog.HEADER_BYTES, g.log().flushedBytes());
      while (scanner.next()) {
        if (scanner.kind() == RecordFormat.KIND_PUT) {
          byte[] key = scanner.key();
          if (isLive(KeyHash.of(key), scanner.offset())) {
            visitor.accept(key, scanner.value());
          }
        }
      }
    } finally {
      maintenanceLock.unlock();
    }
  }

  private static LogScanner scanner(DataLog log, long from, long to) {
    return new LogScanner(log, from, to, (a, b, tail) ->
        LOG.warn("{}: skipping damaged bytes {}..{} in a scan", log.path(), a, b));
  }

  /**
   * Rewrites the live records into a new log and swaps it in. Reads and writes go on meanwhile;
   * writes wait only while the records appended during the copy are carried over.
   */
  public CompactionResult compact() throws IOException {
    maintenanceLock.lock();
    try {
      Generation old = liveGeneration();
      Path target = old.log().path();
      Path tmp = compactingPath(target);
      Files.deleteIfExists(tmp);
      DataLog fresh = DataLog.create(tmp, config.writeBufferBytes(), config.writebackBytes());
      boolean swapped = false;
      try {
        long copiedTo;
        writerLock.lock();
        try {
          // Fixed under the writer lock: every record below it has had its bucket pointed (or
          // cleared) already, so the liveness checks below see each write's final word. A put
          // that appended but had not yet indexed would otherwise look dead here and, lying
          // below the tail, never be copied.
          old.log().flush();
          copiedTo = old.log().flushedBytes();
        } finally {
          writerLock.unlock();
        }
        seams.reached(TestSeams.Seam.COMPACTION_RANGE_FIXED);
        long bytesBefore = copiedTo;
        HashIndex index = new HashIndex(HashIndex.bitsFor(
            Math.max(config.expectedKeys(), old.index().live()), config.loadFactor()));
        long live = 0;
        LogScanner scanner = scanner(old.log(), DataLog.HEADER_BYTES, copiedTo);
        while (scanner.next()) {
          if (scanner.kind() == RecordFormat.KIND_PUT) {
            long hash = KeyHash.of(scanner.key());
            if (isLive(hash, scanner.offset())) {
              long offset = fresh.appendEncoded(scanner.buffer(), scanner.recordStart(),
                  scanner.recordLength(), scanner.positionTag());
              index = IndexBuilder.insert(index, fresh, config.loadFactor(), hash, offset);
              live++;
            }
          }
        }
        seams.reached(TestSeams.Seam.COMPACTION_COPIED);
        writerLock.lock();
        try {
          old.log().flush();
          long end = old.log().flushedBytes();
          bytesBefore = end;
          LogScanner tail = scanner(old.log(), copiedTo, end);
          while (tail.next()) {
            long offset = fresh.appendEncoded(tail.buffer(), tail.recordStart(),
                tail.recordLength(), tail.positionTag());
            index = IndexBuilder.apply(index, fresh, config.loadFactor(), tail.kind(),
                tail.key(), offset);
          }
          // Dropped tombstones may have carried the highest sequence numbers: keep them used.
          fresh.raiseSequenceFloor(nextSequence);
          fresh.sync();
          fresh.moveTo(target);
          long stamp = indexLock.writeLock();
          try {
            generation = new Generation(fresh, index);
          } finally {
            indexLock.unlockWrite(stamp);
          }
          swapped = true;
          syncDriver.advanceTo(nextSequence - 1);
          if (config.checkpoint()) {
            IndexCheckpoint.write(target, fresh.logId(), fresh.flushedBytes(), nextSequence,
                index);
          }
        } finally {
          writerLock.unlock();
        }
        old.log().close();
        LOG.info("{}: compacted {} -> {} bytes, {} live records", target, bytesBefore,
            fresh.flushedBytes(), index.live());
        return new CompactionResult(bytesBefore, fresh.flushedBytes(), index.live());
      } finally {
        if (!swapped) {
          fresh.close();
          Files.deleteIfExists(tmp);
        }
      }
    } finally {
      maintenanceLock.unlock();
    }
  }

  /**
   * Splits this datastore's live entries at {@code ringPosition} in one sequential pass: keys
   * whose {@link RingPositions ring position} is at most {@code ringPosition} (unsigned) go to
   * a new datastore in {@code lowerPath}, the others to one in {@code upperPath}. This
   * datastore is left as it was; writes to it wait until the split is done, reads go on.
   *
   * @throws java.nio.file.FileAlreadyExistsException when a target file exists
   */
  public SplitResult split(long ringPosition, Path lowerPath, Path upperPath) throws IOException {
    if (Files.exists(lowerPath) || Files.exists(upperPath)) {
      throw new java.nio.file.FileAlreadyExistsException(
          Files.exists(lowerPath) ? lowerPath.toString() : upperPath.toString());
    }
    maintenanceLock.lock();
    writerLock.lock();
    try {
      Generation g = liveGeneration();
      DatastoreConfig half = DatastoreConfig.builder().sync(config.sync())
          .syncInterval(java.time.Duration.ofMillis(config.syncIntervalMs()))
          .loadFactor(config.loadFactor()).checkpoint(config.checkpoint())
          .writeBufferBytes(config.writeBufferBytes()).writebackBytes(config.writebackBytes())
          .expectedKeys(Math.max(1, Math.max(g.index().live(), 2) / 2 + 1)).build();
      Datastore lower = open(lowerPath, half);
      Datastore upper = null;
      try {
        upper = open(upperPath, half);
        g.log().flush();
        LogScanner scanner = scanner(g.log(), DataLog.HEADER_BYTES, g.log().flushedBytes());
        RecordBatch batch = new RecordBatch();
        boolean[] live = new boolean[RecordBatch.DEFAULT_CAPACITY];
        Datastore[] targets = new Datastore[RecordBatch.DEFAULT_CAPACITY];
        while (scanner.nextBatch(batch)) {
          liveRecords(batch, live);
          for (int i = 0; i < batch.size(); i++) {
            targets[i] = Long.compareUnsigned(batch.ringPosition(i), ringPosition) <= 0
                ? lower : upper;
          }
          appendLive(batch, live, targets);
        }
        lower.continueSequencesAfter(nextSequence);
        upper.continueSequencesAfter(nextSequence);
        lower.sync();
        upper.sync();
        return new SplitResult(lower, upper);
      } catch (IOException | RuntimeException e) {
        closeQuietly(lower, e);
        if (upper != null) {
          closeQuietly(upper, e);
        }
        Files.deleteIfExists(lowerPath);
        Files.deleteIfExists(upperPath);
        throw e;
      }
    } finally {
      writerLock.unlock();
      maintenanceLock.unlock();
    }
  }

  /**
   * Appends every live entry of {@code other} to this datastore in one sequential pass over
   * its log; where both hold a key, {@code other}'s value wins. {@code other} is left as it was
   * (the caller deletes it); writes to both wait meanwhile, reads go on.
   *
   * <p>When this index is too small for both key sets it must be rebuilt by a pass over this
   * log (buckets keep only 15 bits of each key). That pass runs on a second thread while this
   * one copies {@code other}'s records; their (hash, offset) pairs are inserted into the
   * rebuilt index at the end, and the new index is swapped in at once.
   */
  public void merge(Datastore other) throws IOException {
    if (other == this) {
      throw new IllegalArgumentException("cannot merge " + path() + " into itself");
    }
    Datastore first = id < other.id ? this : other;
    Datastore second = first == this ? other : this;
    first.maintenanceLock.lock();
    second.maintenanceLock.lock();
    first.writerLock.lock();
    second.writerLock.lock();
    try {
      Generation g = liveGeneration();
      Generation source = other.liveGeneration();
      source.log().flush();
      LogScanner scanner = scanner(source.log(), DataLog.HEADER_BYTES,
          source.log().flushedBytes());
      long incoming = other.size();
      if (g.index().live() + incoming <= config.loadFactor() * g.index().capacity()) {
        RecordBatch batch = new RecordBatch();
        boolean[] live = new boolean[RecordBatch.DEFAULT_CAPACITY];
        Datastore[] targets = new Datastore[RecordBatch.DEFAULT_CAPACITY];
        java.util.Arrays.fill(targets, this);
        while (scanner.nextBatch(batch)) {
          other.liveRecords(batch, live);
          appendLive(batch, live, targets);
        }
      } else {
        mergeWhileRebuilding(g, other, scanner, incoming);
      }
      continueSequencesAfter(other.nextSequence);
      sync();
    } finally {
      second.writerLock.unlock();
      first.writerLock.unlock();
      second.maintenanceLock.unlock();
      first.maintenanceLock.unlock();
    }
  }

  /** Copies the live records while another thread builds an index with room for them. */
  private void mergeWhileRebuilding(Generation g, Datastore other, LogScanner scanner,
      long incoming) throws IOException {
    long started = System.nanoTime();
    IndexRebuild rebuild = IndexRebuild.start(g.index(), g.log(), config.loadFactor(), incoming);
    PendingInserts pending = new PendingInserts(incoming);
    RecordBatch batch = new RecordBatch();
    boolean[] live = new boolean[RecordBatch.DEFAULT_CAPACITY];
    try {
      while (scanner.nextBatch(batch)) {
        other.liveRecords(batch, live);
        for (int i = 0; i < batch.size(); i++) {
          if (live[i]) {
            long offset = g.log().appendEncoded(batch.buffer(), batch.start(i), batch.length(i),
                batch.positionTag(i));
            nextSequence = Math.max(nextSequence, batch.sequence(i) + 1);
            pending.add(batch.hash(i), offset);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // The copied records stay unindexed until a reopen replays them; the caller keeps
      // other and may merge again (its values win, so a second merge gives the same result).
      rebuild.awaitAfter(e);
      throw e;
    }
    long copied = System.nanoTime();
    HashIndex rebuilt = rebuild.await();
    long waited = System.nanoTime();
    HashIndex merged = pending.applyTo(rebuilt, g.log(), config.loadFactor());
    LOG.info("{}: merged {} records of {}: copy {} ms, then waited {} ms for the index rebuild, "
        + "inserts {} ms", path(), pending.size(), other.path(), (copied - started) / 1_000_000,
        (waited - copied) / 1_000_000, (System.nanoTime() - waited) / 1_000_000);
    long stamp = indexLock.writeLock();
    try {
      generation = new Generation(g.log(), merged);
    } finally {
      indexLock.unlockWrite(stamp);
    }
  }

  /**
   * Appends the batch's live records to {@code targets[i]}; every target's bucket group is
   * touched first, so that the appends' index probes find them in cache.
   */
  private static void appendLive(RecordBatch batch, boolean[] live, Datastore[] targets)
      throws IOException {
    int sink = 0;
    for (int i = 0; i < batch.size(); i++) {
      sink += live[i] ? targets[i].generation.index().touch(batch.hash(i)) : 0;
    }
    HashIndex.consume(sink);
    for (int i = 0; i < batch.size(); i++) {
      if (live[i]) {
        targets[i].appendCopied(batch, i);
      }
    }
  }

  /** Appends record i of the batch as it is (CRC and sequence kept) and indexes it. */
  private void appendCopied(RecordBatch batch, int i) throws IOException {
    writerLock.lock();
    try {
      Generation g = liveGeneration();
      long hash = batch.hash(i);
      int slot = g.index().findOrFree(hash, writerKeyCheck.of(g.log(), batch.buffer().array(),
          batch.keyArrayOffset(i), batch.keyLength(i)));
      long offset = g.log().appendEncoded(batch.buffer(), batch.start(i), batch.length(i),
                batch.positionTag(i));
      nextSequence = Math.max(nextSequence, batch.sequence(i) + 1);
      place(g, slot, hash, offset);
    } finally {
      writerLock.unlock();
    }
  }

  /**
   * Makes this datastore's next sequence number at least {@code next}, in memory and in its
   * log header: a split or merge copies live records only, and the highest sequence numbers of
   * the source (tombstones, replaced values) must not be handed out again by its successors.
   */
  private void continueSequencesAfter(long next) throws IOException {
    writerLock.lock();
    try {
      nextSequence = Math.max(nextSequence, next);
      liveGeneration().log().raiseSequenceFloor(nextSequence);
    } finally {
      writerLock.unlock();
    }
  }

  /** Forces everything appended so far to the device. */
  public void sync() throws IOException {
    liveGeneration();
    syncDriver.sync(true);
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
    long last = lastSequence();
    if (sequence > last) {
      throw new IllegalArgumentException(path() + ": sequence " + sequence
          + " has not been written (the last write is " + last + ")");
    }
    syncDriver.awaitDurable(sequence);
  }

  /** The sync's flush: log, flush and last sequence read together under the writer lock. */
  private SyncDriver.Flushed flushForSync(boolean wait) throws IOException {
    if (wait) {
      writerLock.lock();
    } else if (!writerLock.tryLock()) {
      return null;
    }
    try {
      Generation g = liveGeneration();
      seams.reached(TestSeams.Seam.SYNC_LOG_CHOSEN);
      g.log().flush();
      return new SyncDriver.Flushed(g.log(), nextSequence - 1);
    } finally {
      writerLock.unlock();
    }
  }

  private void syncInBackground() {
    if (closed.get()) {
      return;
    }
    try {
      syncDriver.syncInBackground(path().toString(), closed::get);
    } catch (IllegalStateException e) {
      LOG.debug("{}: closed during a background sync", path());
    }
  }

  /** Installs test seams (tests only). */
  void seams(TestSeams testSeams) {
    this.seams = testSeams;
  }

  /** The highest sequence number known to be on the device. */
  public long durableSequence() {
    return syncDriver.durableSequence();
  }

  /** The sequence number of the last write (0 when none). */
  public long lastSequence() {
    writerLock.lock();
    try {
      return nextSequence - 1;
    } finally {
      writerLock.unlock();
    }
  }

  public long size() {
    return generation.index().live();
  }

  public DatastoreStats stats() {
    Generation g = generation;
    return new DatastoreStats(g.index().live(), g.index().deleted(), g.index().capacity(),
        (long) g.index().capacity() * HashIndex.BUCKET_BYTES, g.log().size(),
        logReads.sum(), falsePositives.sum(), lastSequence(), syncDriver.durableSequence());
  }

  private Generation liveGeneration() {
    if (closed.get()) {
      throw new IllegalStateException(generation.log().path() + " is closed");
    }
    return generation;
  }

  /**
   * Syncs, writes the index checkpoint (when enabled) and closes the file. Idempotent; each
   * step runs even when an earlier one failed, and the first failure is thrown.
   */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (syncTask != null) {
      syncTask.cancel(false);
    }
    maintenanceLock.lock();
    writerLock.lock();
    try {
      Generation g = generation;
      IOException failure = null;
      try {
        g.log().sync();
        syncDriver.advanceTo(nextSequence - 1);
        if (config.checkpoint()) {
          IndexCheckpoint.write(g.log().path(), g.log().logId(), g.log().flushedBytes(),
              nextSequence, g.index());
        }
      } catch (IOException e) {
        failure = e;
      }
      try {
        g.log().close();
      } catch (IOException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      writerLock.unlock();
      maintenanceLock.unlock();
    }
  }

  private static void closeQuietly(Datastore ds, Exception primary) {
    try {
      ds.close();
    } catch (IOException e) {
      primary.addSuppressed(e);
    }
  }

  @Override
  public String toString() {
    return "Datastore[" + path() + ", " + size() + " keys]";
  }
}
