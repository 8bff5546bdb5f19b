package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A split that keeps one piece in place ({@link RangeMoves#splitOff}): one pass copies the live
 * records of the moved ranges into new files, record bytes unchanged; the kept piece stays where
 * it is, and a range mark says from where on the file holds only it. Half of a split's writing
 * (or more) is saved: the kept records are neither copied nor forced again.
 *
 * <p>Order, so that a crash at any point leaves one whole copy of every key: the new files are
 * written and forced first; then the mark is appended and forced — the commit point; then the
 * index without the moved keys is swapped in. A crash before the mark leaves this file whole
 * (the new files are leftovers a caller deletes); after it, the reopened file drops the moved
 * keys ({@link LogRecovery}), which the new files hold. Locks as {@link RangeMover}'s split:
 * the source's maintenance and writer locks, so writes wait and reads go on.
 */
final class SplitOff {

  private static final Logger LOG = LoggerFactory.getLogger(SplitOff.class);

  private SplitOff() {}

  static List<Datastore> split(Datastore source, List<KeyRange> moved, List<Path> paths,
      KeyRange kept) throws IOException {
    checkRanges(source.path(), moved, paths, kept);
    for (Path p : paths) {
      if (Files.exists(p)) {
        throw new FileAlreadyExistsException(p.toString());
      }
    }
    long started = System.nanoTime();
    if (source.current().open().log().version() == LogFileHeader.FIRST_FORMAT_VERSION) {
      source.compact(); // its records carry no position tag, so no mark may follow them
    }
    source.maintenanceLock().lock();
    source.writes().lock().lock();
    List<Datastore> parts = new ArrayList<>();
    boolean marked = false;
    IndexedLog g = null;
    HashIndex narrowed = null;
    try {
      g = source.current().open();
      DatastoreConfig config = source.config().toBuilder()
          .expectedKeys(Math.max(1, g.index().live() / (moved.size() + 1) + 1)).build();
      for (Path p : paths) {
        parts.add(Datastore.open(p, config));
      }
      narrowed = g.index().copy();
      long movedRecords = copyMoved(source, g, moved, kept, parts, narrowed);
      long copied = System.nanoTime();
      for (Datastore part : parts) {
        part.sync();
      }
      long forced = System.nanoTime();
      source.reached(TestSeams.Seam.SPLIT_PARTS_FORCED);
      marked = true;
      g.log().appendRangeMark(kept, source.writes().nextSequence() - 1);
      source.sync();
      source.reached(TestSeams.Seam.SPLIT_MARKED);
      narrow(source, g, narrowed, kept);
      long done = System.nanoTime();
      LOG.info("{}: split {} live records off to {} in place ({} kept): the pass {} ms, forcing"
          + " the new files {} ms, the mark {} ms", source.path(), movedRecords, paths, kept,
          (copied - started) / 1_000_000, (forced - copied) / 1_000_000,
          (done - forced) / 1_000_000);
      return parts;
    } catch (IOException | RuntimeException e) {
      for (Datastore part : parts) {
        RangeMover.closeQuietly(part, e);
      }
      if (!marked) {
        for (Path p : paths) {
          Files.deleteIfExists(p);
          IndexCheckpoint.delete(p); // written when the part was closed just now
        }
        throw e;
      }
      // The mark may be on the device: the new files, forced, are the only copy of the moved
      // keys that a reopen of this file would trust. Keep them, and close this file as the
      // mark says (a checkpoint of the whole index would outlive the mark).
      narrow(source, g, narrowed, kept);
      RangeMover.closeQuietly(source, e);
      throw new IOException(source.path() + ": a split in place failed after its range mark "
          + "was written; the moved keys are in " + paths + " (kept), " + source.path()
          + " is closed", e);
    } finally {
      source.writes().lock().unlock();
      source.maintenanceLock().unlock();
    }
  }

  /** The range first, then the index: a read that misses a moved key sees the range. */
  private static void narrow(Datastore source, IndexedLog g, HashIndex narrowed, KeyRange kept) {
    source.current().holdOnly(kept);
    source.current().swap(new IndexedLog(g.log(), narrowed));
  }

  /**
   * The pass: live records of a moved range are appended to its part and taken out of
   * {@code narrowed}; one in no range at all fails the split before anything is marked.
   */
  private static long copyMoved(Datastore source, IndexedLog g, List<KeyRange> moved,
      KeyRange kept, List<Datastore> parts, HashIndex narrowed) throws IOException {
    g.log().flush();
    LogScanner scanner = LogScanner.skippingDamage(g.log(), DataLog.HEADER_BYTES,
        g.log().flushedBytes());
    RecordBatch batch = new RecordBatch();
    boolean[] live = new boolean[RecordBatch.DEFAULT_CAPACITY];
    long count = 0;
    while (scanner.nextBatch(batch)) {
      source.current().liveRecords(batch, live);
      for (int i = 0; i < batch.size(); i++) {
        if (!live[i]) {
          continue;
        }
        long position = batch.ringPosition(i);
        int part = partOf(position, moved);
        if (part >= 0) {
          parts.get(part).writes().appendCopied(batch, i);
          narrowed.remove(narrowed.slotPointingAt(batch.hash(i), batch.offset(i)));
          count++;
        } else if (!kept.contains(position)) {
          throw new IllegalArgumentException(source.path() + ": a live key at ring position "
              + Long.toUnsignedString(position, 16) + " lies in none of the moved ranges "
              + moved + " nor in the kept " + kept + "; nothing was split");
        }
      }
    }
    return count;
  }

  private static int partOf(long position, List<KeyRange> moved) {
    for (int i = 0; i < moved.size(); i++) {
      if (moved.get(i).contains(position)) {
        return i;
      }
    }
    return -1;
  }

  private static void checkRanges(Path source, List<KeyRange> moved, List<Path> paths,
      KeyRange kept) {
    if (moved.isEmpty() || moved.size() != paths.size()) {
      throw new IllegalArgumentException(source + ": a split in place needs one path per moved"
          + " range, at least one: " + moved.size() + " ranges, " + paths.size() + " paths");
    }
    List<KeyRange> all = new ArrayList<>(moved);
    all.add(kept);
    for (int i = 0; i < all.size(); i++) {
      for (int j = i + 1; j < all.size(); j++) {
        if (all.get(i).overlaps(all.get(j))) {
          throw new IllegalArgumentException(source + ": split ranges overlap: " + all.get(i)
              + " and " + all.get(j));
        }
      }
    }
  }
}
