package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 */
final class Compactor {

  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private Compactor() {}

  static Datastore.CompactionResult compact(CurrentLog current, Writes writes, DatastoreConfig config,
      TestSeams seams) throws IOException {
    IndexedLog old = current.open();
    Path target = old.log().path();
    Path tmp = StoreFiles.compacting(target);
    Files.deleteIfExists(tmp);
    DataLog fresh = DataLogFiles.create(tmp, config.writeBufferBytes(), config.writebackBytes());
    boolean swapped = false;
    try {
      long copiedTo = flushedEnd(old, writes);
      seams.reached(TestSeams.Seam.COMPACTION_RANGE_FIXED);
      HashIndex index = copyLive(current, old, fresh, copiedTo, config);
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
        fresh.raiseSequenceFloor(next);
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
      return new Datastore.CompactionResult(bytesBefore, fresh.flushedBytes(), index.live());
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
      DatastoreConfig config) throws IOException {
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
    }
    return index;
  }
}
