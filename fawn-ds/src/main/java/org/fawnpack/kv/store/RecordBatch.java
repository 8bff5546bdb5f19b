package org.fawnpack.kv.store;

import java.nio.ByteBuffer;

/**
 * Consecutive valid records of a log, gathered by {@link LogScanner#nextBatch} while they all
 * sit in the scanner's buffer: where each starts in {@link #buffer()}, its length, log offset,
 * kind, sequence and key hash. Working on a batch lets index probes of many records overlap
 * in memory (see {@link HashIndex#touch}) instead of waiting for one cache miss at a time.
 * Reused from batch to batch; not thread-safe.
 */
final class RecordBatch {

  static final int DEFAULT_CAPACITY = 32;

  private final int[] starts;
  private final int[] lengths;
  private final long[] offsets;
  private final long[] hashes;
  private final long[] sequences;
  private final int[] tags;
  private final byte[] kinds;
  private ByteBuffer buffer;
  private int size;

  RecordBatch() {
    this(DEFAULT_CAPACITY);
  }

  RecordBatch(int capacity) {
    starts = new int[capacity];
    lengths = new int[capacity];
    offsets = new long[capacity];
    hashes = new long[capacity];
    sequences = new long[capacity];
    tags = new int[capacity];
    kinds = new byte[capacity];
  }

  void clear(ByteBuffer scannerBuffer) {
    buffer = scannerBuffer;
    size = 0;
  }

  void add(LogScanner scanner) {
    buffer = scanner.buffer();
    starts[size] = scanner.recordStart();
    lengths[size] = scanner.recordLength();
    offsets[size] = scanner.offset();
    kinds[size] = scanner.kind();
    sequences[size] = scanner.sequence();
    tags[size] = scanner.positionTag();
    hashes[size] = scanner.keyHash();
    size++;
  }

  boolean full() {
    return size == starts.length;
  }

  int size() {
    return size;
  }

  ByteBuffer buffer() {
    return buffer;
  }

  int start(int i) {
    return starts[i];
  }

  int length(int i) {
    return lengths[i];
  }

  long offset(int i) {
    return offsets[i];
  }

  long hash(int i) {
    return hashes[i];
  }

  long sequence(int i) {
    return sequences[i];
  }

  /** The position tag record i carries in the scanned log. */
  int positionTag(int i) {
    return tags[i];
  }

  byte kind(int i) {
    return kinds[i];
  }

  boolean isPut(int i) {
    return kinds[i] == RecordFormat.KIND_PUT;
  }

  /** Where record i's key starts in {@code buffer().array()}. */
  int keyArrayOffset(int i) {
    return buffer.arrayOffset() + starts[i] + RecordFormat.HEADER_BYTES;
  }

  int keyLength(int i) {
    return RecordFormat.keyLength(buffer, starts[i]);
  }

  /** Record i's ring position ({@link RingPositions}), read in place. */
  long ringPosition(int i) {
    return RingPositions.of(buffer, starts[i] + RecordFormat.HEADER_BYTES, keyLength(i));
  }

  /** A copy of record i's key. */
  byte[] key(int i) {
    return RecordFormat.copy(buffer, starts[i] + RecordFormat.HEADER_BYTES,
        RecordFormat.keyLength(buffer, starts[i]));
  }
}
