package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Split and merge: moving a datastore's live records into others in one sequential pass over
 * its log, record bytes unchanged (only their position tags are swapped).
 *
 * <p>Lock order, the same everywhere so two moves cannot deadlock: the maintenance locks, then
 * the writer locks, each pair taken in the order of the datastores' creation ids. A move holds
 * the writer locks of the datastores it reads and appends to (writes wait; reads go on). The
 * new datastores of a split are not yet visible to anyone, so their locks are taken per append.
 */
final class RangeMover {

  private static final Logger LOG = LoggerFactory.getLogger(RangeMover.class);

  private RangeMover() {}

  /**
   * See {@link RangeMoves#split} and {@link RangeMoves#splitArc}: positions {@code toLower}
   * accepts go to the lower datastore. The upper one continues the source's numbering; the lower
   * one too when {@code lowerContinuesNumbering}, else it continues after its own records.
   */
  static RangeMoves.SplitResult split(Datastore source, java.util.function.LongPredicate toLower,
      boolean lowerContinuesNumbering, Path lowerPath, Path upperPath) throws IOException {
    for (Path p : new Path[] {lowerPath, upperPath}) {
      if (Files.exists(p)) {
        throw new FileAlreadyExistsException(p.toString());
      }
    }
    source.maintenanceLock().lock();
    source.writes().lock().lock();
    try {
      IndexedLog g = source.current().open();
      DatastoreConfig half = source.config().toBuilder()
          .expectedKeys(Math.max(1, Math.max(g.index().live(), 2) / 2 + 1)).build();
      Datastore lower = Datastore.open(lowerPath, half);
      Datastore upper = null;
      try {
        upper = Datastore.open(upperPath, half);
        g.log().flush();
        LogScanner scanner = LogScanner.skippingDamage(g.log(), DataLog.HEADER_BYTES,
            g.log().flushedBytes());
        RecordBatch batch = new RecordBatch();
        boolean[] live = new boolean[RecordBatch.DEFAULT_CAPACITY];
        Datastore[] targets = new Datastore[RecordBatch.DEFAULT_CAPACITY];
        while (scanner.nextBatch(batch)) {
          source.current().liveRecords(batch, live);
          for (int i = 0; i < batch.size(); i++) {
            targets[i] = toLower.test(batch.ringPosition(i)) ? lower : upper;
          }
          appendLive(batch, live, targets);
        }
        long next = source.writes().nextSequence();
        if (lowerContinuesNumbering) {
          lower.writes().continueSequencesAfter(next);
        }
        upper.writes().continueSequencesAfter(next);
        lower.sync();
        upper.sync();
        return new RangeMoves.SplitResult(lower, upper);
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
      source.writes().lock().unlock();
      source.maintenanceLock().unlock();
    }
  }

  /** See {@link RangeMoves#merge}. */
  static void merge(Datastore target, Datastore other) throws IOException {
    if (other == target) {
      throw new IllegalArgumentException("cannot merge " + target.path() + " into itself");
    }
    Datastore first = target.id() < other.id() ? target : other;
    Datastore second = first == target ? other : target;
    first.maintenanceLock().lock();
    second.maintenanceLock().lock();
    first.writes().lock().lock();
    second.writes().lock().lock();
    try {
      IndexedLog g = target.current().open();
      IndexedLog source = other.current().open();
      source.log().flush();
      LogScanner scanner = LogScanner.skippingDamage(source.log(), DataLog.HEADER_BYTES,
          source.log().flushedBytes());
      long incoming = other.size();
      DatastoreConfig config = target.config();
      if (g.index().live() + incoming <= config.loadFactor() * g.index().capacity()) {
        RecordBatch batch = new RecordBatch();
        boolean[] live = new boolean[RecordBatch.DEFAULT_CAPACITY];
        Datastore[] targets = new Datastore[RecordBatch.DEFAULT_CAPACITY];
        Arrays.fill(targets, target);
        while (scanner.nextBatch(batch)) {
          other.current().liveRecords(batch, live);
          appendLive(batch, live, targets);
        }
      } else {
        mergeWhileRebuilding(target, g, other, scanner, incoming);
      }
      target.writes().continueSequencesAfter(other.writes().nextSequence());
      target.sync();
      target.current().holdOnly(null); // wider now than a split in place may have left it
    } finally {
      second.writes().lock().unlock();
      first.writes().lock().unlock();
      second.maintenanceLock().unlock();
      first.maintenanceLock().unlock();
    }
  }

  /** See {@link RangeMoves#absorb}. */
  static void absorb(Datastore target, Datastore other) throws IOException {
    if (other == target) {
      throw new IllegalArgumentException("cannot absorb " + target.path() + " into itself");
    }
    Datastore first = target.id() < other.id() ? target : other;
    Datastore second = first == target ? other : target;
    first.maintenanceLock().lock(); // no compaction swaps either log meanwhile
    second.maintenanceLock().lock();
    try {
      long shift = target.lastSequence();
      StoreView view = other.readView();
      StoreView.Entries entries = view.allEntriesAfter(0, KeyRange.wholeRing());
      long copied = 0;
      for (StoreView.Entry e = entries.next(); e != null; e = entries.next()) {
        if (!target.putAt(e.key(), e.value(), e.sequence() + shift)) {
          throw new IllegalStateException(target.path() + ": absorbing " + other.path()
              + " met entry " + e.sequence() + " out of sequence order");
        }
        copied++;
      }
      target.writes().continueSequencesAfter(view.lastSequence() + shift + 1);
      target.sync();
      target.current().holdOnly(null); // wider now than a split in place may have left it
      LOG.info("{}: absorbed {} live entries of {}, numbered after {}; next write {}",
          target.path(), copied, other.path(), shift, view.lastSequence() + shift + 1);
    } finally {
      second.maintenanceLock().unlock();
      first.maintenanceLock().unlock();
    }
  }

  /**
   * When the target's index has no room for both key sets it must be rebuilt by a pass over
   * its log (buckets keep only 15 bits of each key). That pass runs on a second thread while
   * this one copies {@code other}'s records; their (hash, offset) pairs are inserted into the
   * rebuilt index at the end, and the new index is swapped in at once.
   */
  private static void mergeWhileRebuilding(Datastore target, IndexedLog g, Datastore other,
      LogScanner scanner, long incoming) throws IOException {
    long started = System.nanoTime();
    double loadFactor = target.config().loadFactor();
    IndexRebuild rebuild = IndexRebuild.start(g.index(), g.log(), loadFactor, incoming);
    PendingInserts pending = new PendingInserts(incoming);
    RecordBatch batch = new RecordBatch();
    boolean[] live = new boolean[RecordBatch.DEFAULT_CAPACITY];
    try {
      while (scanner.nextBatch(batch)) {
        other.current().liveRecords(batch, live);
        for (int i = 0; i < batch.size(); i++) {
          if (live[i]) {
            pending.add(batch.hash(i), target.writes().appendUnindexed(g, batch, i));
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
    HashIndex merged = pending.applyTo(rebuilt, g.log(), loadFactor);
    LOG.info("{}: merged {} records of {}: copy {} ms, then waited {} ms for the index rebuild, "
        + "inserts {} ms", target.path(), pending.size(), other.path(),
        (copied - started) / 1_000_000, (waited - copied) / 1_000_000,
        (System.nanoTime() - waited) / 1_000_000);
    target.current().swap(new IndexedLog(g.log(), merged));
  }

  /** Closes a datastore a failed move opened; a failure to close is added to {@code primary}. */
  static void closeQuietly(Datastore ds, Exception primary) {
    try {
      ds.close();
    } catch (IOException e) {
      primary.addSuppressed(e);
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
      sink += live[i] ? targets[i].current().get().index().touch(batch.hash(i)) : 0;
    }
    HashIndex.consume(sink);
    for (int i = 0; i < batch.size(); i++) {
      if (live[i]) {
        targets[i].writes().appendCopied(batch, i);
      }
    }
  }
}
