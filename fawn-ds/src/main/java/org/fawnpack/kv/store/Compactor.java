package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites a datastore's live records into a new log and swaps it in, while reads and writes
 * go on:
 * <ol>
 *   <li>under the writer lock, flush and fix the end of the range to copy: every record below
 *       it has had its bucket pointed or cleared, so liveness seen there is final;
 *   <li>without the lock, copy the puts the index points at into {@code <file>.compacting};
 *   <li>under the writer lock again, carry over every record appended meanwhile (tombstones
 *       too, in log order), raise the sequence floor, force the new file, rename it over the
 *       old one (forcing the directory), swap log and index, and write the checkpoint.
 * </ol>
 * A failure before the rename deletes the new file and leaves the datastore as it was. The
 * caller holds the datastore's maintenance lock.
 *
 * <p>Bounded by a floor (a chain member's compaction: {@link Datastore#compactThrough}), only
 * history at or below the floor goes: of the records numbered up to it, each key keeps its
 * newest put (its newest record being a delete, nothing), and the last of them stays whatever
 * it is; every record above it is copied as it is, superseded or not, since a member after this one in the chain, or a point-in-time read
 * above the floor, may still need it. The log is in sequence order, so the records at or below
 * the floor are a prefix of it. The new file's header floor is then the floor + 1, which says
 * both that no number up to the floor is handed out again and that cuts below it are gone.
 */
final class Compactor {

  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private Compactor() {}

  /** A floor above every sequence number: all superseded history goes. */
  static final long UNBOUNDED = Long.MAX_VALUE;

  static CompactionResult compact(CurrentLog current, Writes writes, DatastoreConfig config,
      TestSeams seams) throws IOException {
    return compact(current, writes, config, seams, UNBOUNDED, CompactionThrottle.NONE);
  }

  static CompactionResult compact(CurrentLog current, Writes writes,
      DatastoreConfig config, TestSeams seams, long floor, CompactionThrottle throttle)
      throws IOException {
    IndexedLog old = current.open();
    Path target = old.log().path();
    Path tmp = StoreFiles.compacting(target);
    Files.deleteIfExists(tmp);
    DataLog fresh = DataLogFiles.create(tmp, config.writeBufferBytes(), config.writebackBytes());
    boolean swapped = false;
    try {
      long copiedTo = flushedEnd(old, writes);
      seams.reached(TestSeams.Seam.COMPACTION_RANGE_FIXED);
      HashIndex index = floor == UNBOUNDED
          ? copyLive(current, old, fresh, copiedTo, config, throttle)
          : copyHistoryBelow(floor, old, fresh, copiedTo, config, throttle);
      seams.reached(TestSeams.Seam.COMPACTION_COPIED);
      long bytesBefore;
      writes.lock().lock();
      try {
        old.log().flush();
        bytesBefore = old.log().flushedBytes();
        LogScanner tail = LogScanner.skippingDamage(old.log(), copiedTo, bytesBefore);
        while (tail.next()) {
          long offset = fresh.appendEncoded(tail.buffer(), tail.recordStart(),
              tail.recordLength(), tail.positionTag());
          index = IndexBuilder.apply(index, fresh, config.loadFactor(), tail.kind(), tail.key(),
              offset);
        }
        long next = writes.nextSequence();
        // Dropped tombstones may have carried the highest sequence numbers: keep them used.
        // Bounded, every dropped record is numbered at most the floor; the header keeps the
        // floor so that a view of this file refuses cuts below it.
        fresh.raiseSequenceFloor(floor == UNBOUNDED ? next
            : Math.max(old.log().sequenceFloor(), Math.min(next, floor + 1)));
        fresh.sync();
        fresh.moveTo(target);
        current.swap(new IndexedLog(fresh, index));
        swapped = true;
        writes.sync().advanceTo(next - 1);
        if (config.checkpoint()) {
          IndexCheckpoint.write(target, fresh.logId(), fresh.flushedBytes(), next, index);
        }
      } finally {
        writes.lock().unlock();
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
  }

  /**
   * The end of the range to copy, fixed under the writer lock. (Fixed without it, a put that
   * had appended but not yet indexed looked dead to the copy and, lying below the tail carried
   * over later, was dropped.)
   */
  private static long flushedEnd(IndexedLog old, Writes writes) throws IOException {
    writes.lock().lock();
    try {
      old.log().flush();
      return old.log().flushedBytes();
    } finally {
      writes.lock().unlock();
    }
  }

  /** Copies the puts the index points at in {@code [header, end)}; returns their new index. */
  private static HashIndex copyLive(CurrentLog current, IndexedLog old, DataLog fresh, long end,
      DatastoreConfig config, CompactionThrottle throttle) throws IOException {
    HashIndex index = new HashIndex(HashIndex.bitsFor(
        Math.max(config.expectedKeys(), old.index().live()), config.loadFactor()));
    LogScanner scanner = LogScanner.skippingDamage(old.log(), DataLog.HEADER_BYTES, end);
    while (scanner.next()) {
      if (scanner.kind() == RecordFormat.KIND_PUT) {
        long hash = scanner.keyHash();
        if (current.isLive(hash, scanner.offset())) {
          long offset = fresh.appendEncoded(scanner.buffer(), scanner.recordStart(),
              scanner.recordLength(), scanner.positionTag());
          index = IndexBuilder.insert(index, fresh, config.loadFactor(), hash, offset);
        }
      }
      throttle.passed(scanner.recordLength());
    }
    return index;
  }

  /**
   * Copies, of the records in {@code [header, end)}, the newest put of each key among those
   * numbered up to {@code floor}, then every record above it; returns their new index.
   */
  private static HashIndex copyHistoryBelow(long floor, IndexedLog old, DataLog fresh, long end,
      DatastoreConfig config, CompactionThrottle throttle) throws IOException {
    HashIndex newestAtFloor = new HashIndex(HashIndex.bitsFor(
        Math.max(config.expectedKeys(), old.index().live()), config.loadFactor()));
    long aboveFloor = end;
    long lastSequence = 0;
    long lastAtFloor = -1;
    LogScanner first = LogScanner.skippingDamage(old.log(), DataLog.HEADER_BYTES, end);
    while (first.next()) {
      if (first.sequence() < lastSequence) {
        throw new IllegalStateException(old.log().path() + ": record at offset "
            + first.offset() + " is numbered " + first.sequence() + ", after "
            + lastSequence + ": the log is not in sequence order, so it cannot be compacted"
            + " below a floor");
      }
      lastSequence = first.sequence();
      if (lastSequence > floor) {
        aboveFloor = first.offset();
        break;
      }
      newestAtFloor = IndexBuilder.apply(newestAtFloor, old.log(), config.loadFactor(),
          first.kind(), first.key(), first.offset());
      lastAtFloor = first.offset();
      throttle.passed(first.recordLength());
    }
    HashIndex index = new HashIndex(newestAtFloor.capacityBits());
    LogScanner copy = LogScanner.skippingDamage(old.log(), DataLog.HEADER_BYTES, end);
    // Records are copied whether live or not, so a split's range marks come along, each where
    // it lay among them, and rule out here what they ruled out there.
    List<RangeMarks.Mark> marks = new ArrayList<>();
    int marksPassed = 0;
    while (copy.next()) {
      marksPassed = RangeMarks.copyPassed(copy, marksPassed, fresh, marks);
      // The last record at or below the floor stays even when it is a delete: a file torn
      // after a compaction then shows, by its last record, how far it really reaches (its
      // header's floor would claim the floor whatever it lost).
      boolean keep = copy.offset() >= aboveFloor || copy.offset() == lastAtFloor
          || copy.kind() == RecordFormat.KIND_PUT
          && newestAtFloor.pointsAt(copy.keyHash(), copy.offset());
      if (keep) {
        long offset = fresh.appendEncoded(copy.buffer(), copy.recordStart(),
            copy.recordLength(), copy.positionTag());
        index = IndexBuilder.apply(index, fresh, config.loadFactor(), copy.kind(), copy.key(),
            offset);
      }
      throttle.passed(copy.recordLength());
    }
    RangeMarks.copyPassed(copy, marksPassed, fresh, marks);
    RangeMarks.apply(index, fresh, marks);
    return index;
  }
}
