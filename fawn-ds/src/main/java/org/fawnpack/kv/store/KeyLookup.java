package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The read path: finds a key's record with no lock. The index walk runs under an optimistic
 * stamp ({@link CurrentLog#read}); each bucket with the key's fragment costs one log read to
 * compare the full key (a match of another key's fragment is a false positive, counted). A
 * walk whose log and index were swapped meanwhile (compaction, growth, merge) starts again on
 * the new pair.
 */
final class KeyLookup {

  private final CurrentLog current;
  private final LongAdder logReads = new LongAdder();
  private final LongAdder falsePositives = new LongAdder();

  KeyLookup(CurrentLog current) {
    this.current = current;
  }

  long logReads() {
    return logReads.sum();
  }

  long falsePositives() {
    return falsePositives.sum();
  }

  /** The value stored under {@code key}, or null (see {@link #found}). */
  byte[] value(byte[] key) throws IOException {
    ByteBuffer record = found(key);
    if (record == null) {
      return null;
    }
    int keyLength = RecordFormat.keyLength(record, 0);
    return RecordFormat.copy(record, RecordFormat.HEADER_BYTES + keyLength,
        RecordFormat.valueLength(record, 0));
  }

  /**
   * As {@link #find}, for an answer to a reader: after a split in place moved a key's range
   * out ({@link RangeMoves#splitOff}), "absent" would be wrong, so a miss there is refused (a
   * key written here since is found). Checked after the miss: the range is set before the
   * narrowed index is swapped in, so a walk that missed by the new index sees it.
   */
  ByteBuffer found(byte[] key) throws IOException {
    ByteBuffer record = find(key);
    if (record != null) {
      return record; // a hit needs no range: only "absent" can be wrong after a split
    }
    KeyRange holds = current.holds();
    if (holds != null && !holds.contains(key)) {
      throw new IllegalStateException(current.get().log().path() + " holds only " + holds
          + " since a split moved the rest to other files: key at ring position "
          + Long.toUnsignedString(RingPositions.of(key), 16) + " is not here");
    }
    return null;
  }

  /** The record holding {@code key} (in a per-thread buffer), or null. */
  ByteBuffer find(byte[] key) throws IOException {
    long hash = KeyHash.of(key);
    while (true) {
      IndexedLog g = current.open();
      try {
        ByteBuffer found = findIn(g, key, hash);
        if (found != null || current.get() == g) {
          return found;
        }
      } catch (ClosedChannelException e) {
        // Compaction retired this log under us: retry on the new one. Anything else is real.
        if (current.isClosed()) {
          throw new IllegalStateException(g.log().path() + " is closed", e);
        }
        if (current.get() == g) {
          throw e;
        }
      }
    }
  }

  /** The index walk; null when the key is absent or the pair was swapped mid-walk. */
  private ByteBuffer findIn(IndexedLog g, byte[] key, long hash) throws IOException {
    int step = 0;
    while (true) {
      int from = step;
      // Candidate step and its record's offset, packed: step in the top 24 bits, offset / 8
      // below (offsets are multiples of 8 under 32 GiB); -1 when no candidate is left.
      long candidate = current.read(g, index -> {
        int found = index.nextCandidateStep(hash, from);
        return found < 0 ? -1 : ((long) found << 40) | (index.offset(index.slotAt(hash, found)) >>> 3);
      });
      if (candidate == CurrentLog.SWAPPED || candidate < 0) {
        return null;
      }
      logReads.increment();
      ByteBuffer record = RecordReader.read(g.log(), (candidate & 0xFF_FFFF_FFFFL) << 3);
      if (RecordFormat.keyEquals(record, 0, key)) {
        return record;
      }
      falsePositives.increment();
      step = (int) (candidate >>> 40) + 1;
    }
  }
}
