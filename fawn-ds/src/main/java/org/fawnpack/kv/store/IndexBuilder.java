package org.fawnpack.kv.store;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Index changes that need the log: applying a record (a put or a delete of a key that may
 * already be there, confirmed by reading the key) and growing. The index keeps only 15 bits of
 * each key, so a bigger table is built by one sequential pass over the log that re-hashes every
 * record the old index points at.
 */
final class IndexBuilder {

  private static final Logger LOG = LoggerFactory.getLogger(IndexBuilder.class);

  private IndexBuilder() {}

  /** Applies one record to {@code index}; returns the index to use from now on (grown or not). */
  static HashIndex apply(HashIndex index, DataLog log, double loadFactor, byte kind, byte[] key,
      long offset) throws IOException {
    long hash = KeyHash.of(key);
    HashIndex.KeyCheck check = at -> RecordReader.keyAt(log, at, key);
    if (kind == RecordFormat.KIND_DELETE) {
      int slot = index.find(hash, check);
      if (slot >= 0) {
        index.remove(slot);
      }
      return index;
    }
    return applyPut(index, log, loadFactor, hash, check, offset);
  }

  /**
   * Points the key ({@code check} confirms fragment matches) at the put record at
   * {@code offset}: repoints its bucket or takes a free one, growing when needed.
   */
  static HashIndex applyPut(HashIndex index, DataLog log, double loadFactor, long hash,
      HashIndex.KeyCheck check, long offset) throws IOException {
    int slot = index.findOrFree(hash, check);
    if (slot >= 0) {
      index.repoint(slot, offset);
      return index;
    }
    if (slot < -1 && !index.full(loadFactor)) {
      index.insertAt(-2 - slot, hash, offset);
      return index;
    }
    return insert(index, log, loadFactor, hash, offset);
  }

  // Growth passes read the log only up to the record being added: nothing after it can be in
  // the index yet (during recovery the rest of the file is still to be replayed).

  /** Inserts an absent key, growing first when the load factor or a full chain asks for it. */
  static HashIndex insert(HashIndex index, DataLog log, double loadFactor, long hash, long offset)
      throws IOException {
    HashIndex target = index.full(loadFactor)
        ? rehash(index, log, bitsWithRoom(index, loadFactor, 1), offset) : index;
    while (!target.insert(hash, offset)) {
      target = rehash(target, log, target.capacityBits() + 1, offset);
    }
    return target;
  }

  /**
   * A copy with room for {@code more} keys beyond those it holds at the load factor (or the
   * same size without its deleted buckets).
   */
  static HashIndex grown(HashIndex index, DataLog log, double loadFactor, long more)
      throws IOException {
    log.flush();
    return rehash(index, log, bitsWithRoom(index, loadFactor, more), log.flushedBytes());
  }

  static int bitsWithRoom(HashIndex index, double loadFactor, long more) {
    return Math.max(index.capacityBits(), HashIndex.bitsFor(index.live() + more, loadFactor));
  }

  /**
   * A new index of 2^bits buckets holding what {@code index} holds, by one pass over the log
   * up to {@code end}.
   */
  static HashIndex rehash(HashIndex index, DataLog log, int bits, long end) throws IOException {
    long start = System.nanoTime();
    if (end > log.flushedBytes()) {
      log.flush();
    }
    HashIndex next = new HashIndex(bits);
    LogScanner scanner = new LogScanner(log, DataLog.HEADER_BYTES,
        Math.min(end, log.flushedBytes()), (from, to, tail) -> {
          // Reported when the log was opened; nothing the index points at lies there.
        });
    RecordBatch batch = new RecordBatch();
    while (scanner.nextBatch(batch)) {
      if (!insertLive(index, next, batch)) {
        return rehash(index, log, bits + 1, end);
      }
    }
    if (next.live() != index.live()) {
      throw new IllegalStateException(log.path() + ": rehash found " + next.live() + " of the "
          + index.live() + " keys the index points at");
    }
    LOG.info("{}: index grown from 2^{} to 2^{} buckets for {} keys in {} ms", log.path(),
        index.capacityBits(), bits, index.live(), (System.nanoTime() - start) / 1_000_000);
    return next;
  }

  /** Inserts the batch's puts that {@code from} points at into {@code to}; false when full. */
  private static boolean insertLive(HashIndex from, HashIndex to, RecordBatch batch) {
    int sink = 0;
    for (int i = 0; i < batch.size(); i++) {
      sink += from.touch(batch.hash(i)) + to.touch(batch.hash(i));
    }
    HashIndex.consume(sink);
    for (int i = 0; i < batch.size(); i++) {
      if (batch.isPut(i) && from.pointsAt(batch.hash(i), batch.offset(i))
          && !to.insert(batch.hash(i), batch.offset(i))) {
        return false;
      }
    }
    return true;
  }
}
