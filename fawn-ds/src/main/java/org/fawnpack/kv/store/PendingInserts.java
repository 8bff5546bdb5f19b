package org.fawnpack.kv.store;

import java.io.IOException;
import java.util.Arrays;

/**
 * Records a merge appended to the target's log while the target's bigger index is still being
 * built on another thread: (key hash, log offset) pairs, 12 bytes each, inserted into that
 * index once it is ready. A pair's key is read back from the log only when its fragment
 * matches a bucket (about 1 in 32,768 probes), to tell a new key from one the target held.
 * Not thread-safe.
 */
final class PendingInserts {

  private long[] hashes;
  private int[] offsetUnits;
  private int size;

  PendingInserts(long expected) {
    int capacity = (int) Math.max(16, Math.min(expected, Integer.MAX_VALUE - 8));
    hashes = new long[capacity];
    offsetUnits = new int[capacity];
  }

  void add(long hash, long offset) {
    if (size == hashes.length) {
      int capacity = (int) Math.min((long) size * 2, Integer.MAX_VALUE - 8);
      hashes = Arrays.copyOf(hashes, capacity);
      offsetUnits = Arrays.copyOf(offsetUnits, capacity);
    }
    hashes[size] = hash;
    offsetUnits[size] = (int) (offset / RecordFormat.ALIGNMENT);
    size++;
  }

  int size() {
    return size;
  }

  /**
   * Inserts every pair, in the order added, into {@code index} (a later record of a key
   * replaces the earlier one); returns the index to use from now on (grown if it filled up).
   */
  HashIndex applyTo(HashIndex index, DataLog log, double loadFactor) throws IOException {
    HashIndex target = index;
    StoredKeyCheck check = new StoredKeyCheck(log);
    for (int from = 0; from < size; from += RecordBatch.DEFAULT_CAPACITY) {
      int to = Math.min(size, from + RecordBatch.DEFAULT_CAPACITY);
      int sink = 0;
      for (int i = from; i < to; i++) {
        sink += target.touch(hashes[i]); // the group's cache misses overlap (HashIndex#touch)
      }
      HashIndex.consume(sink);
      for (int i = from; i < to; i++) {
        long offset = Integer.toUnsignedLong(offsetUnits[i]) * RecordFormat.ALIGNMENT;
        target = IndexBuilder.applyPut(target, log, loadFactor, hashes[i], check.of(offset),
            offset);
      }
    }
    return target;
  }

  /** Compares a candidate's key with the key of a record already in the log. */
  private static final class StoredKeyCheck implements HashIndex.KeyCheck {
    private final DataLog log;
    private long offset;

    StoredKeyCheck(DataLog log) {
      this.log = log;
    }

    StoredKeyCheck of(long recordOffset) {
      this.offset = recordOffset;
      return this;
    }

    @Override
    public boolean matches(long candidate) throws IOException {
      return RecordReader.keyAt(log, candidate, RecordReader.key(log, offset));
    }
  }
}
