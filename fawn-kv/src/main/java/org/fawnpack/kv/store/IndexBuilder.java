package org.fawnpack.kv.store;

import java.io.IOException;
import java.util.Arrays;

/**
 * Index changes that need the log: applying a record (a put or a delete of a key that may
 * already be there, confirmed by reading the key) and growing (the index keeps only 15 bits of
 * each key, so a bigger table re-reads every live key, in log order).
 */
final class IndexBuilder {

  private IndexBuilder() {}

  /** Applies one record to {@code index}; returns the index to use from now on (grown or not). */
  static HashIndex apply(HashIndex index, DataLog log, double loadFactor, byte kind, byte[] key,
      long offset) throws IOException {
    long hash = KeyHash.of(key);
    int slot = index.find(hash, at -> RecordReader.keyAt(log, at, key));
    if (kind == RecordFormat.KIND_DELETE) {
      if (slot >= 0) {
        index.remove(slot);
      }
      return index;
    }
    if (slot >= 0) {
      index.repoint(slot, offset);
      return index;
    }
    return insert(index, log, loadFactor, hash, offset);
  }

  /** Inserts an absent key, growing first when the load factor or a full chain asks for it. */
  static HashIndex insert(HashIndex index, DataLog log, double loadFactor, long hash, long offset)
      throws IOException {
    HashIndex target = index.full(loadFactor) ? grown(index, log, loadFactor) : index;
    while (!target.insert(hash, offset)) {
      target = rehash(target, log, target.capacityBits() + 1);
    }
    return target;
  }

  /** A copy sized for one more key than it holds (or the same size without deleted buckets). */
  static HashIndex grown(HashIndex index, DataLog log, double loadFactor) throws IOException {
    int bits = Math.max(index.capacityBits(), HashIndex.bitsFor(index.live() + 1L, loadFactor));
    if (bits == index.capacityBits() && index.live() + 1 > loadFactor * index.capacity()) {
      bits++;
    }
    return rehash(index, log, bits);
  }

  static HashIndex rehash(HashIndex index, DataLog log, int bits) throws IOException {
    long[] offsets = index.liveOffsets();
    Arrays.sort(offsets);
    HashIndex next = new HashIndex(bits);
    for (long offset : offsets) {
      if (!next.insert(KeyHash.of(RecordReader.key(log, offset)), offset)) {
        return rehash(index, log, bits + 1);
      }
    }
    return next;
  }
}
