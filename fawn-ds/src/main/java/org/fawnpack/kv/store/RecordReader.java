package org.fawnpack.kv.store;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads one record at a known offset with one positional read in the common case (the first
 * read takes {@link #FIRST_READ_BYTES}; longer records need a second), checks its header and
 * CRC32C, and leaves it at index 0 of a per-thread buffer.
 */
final class RecordReader {

  static final int FIRST_READ_BYTES = 512;

  private static final ThreadLocal<ByteBuffer> BUFFERS =
      ThreadLocal.withInitial(() -> ByteBuffer.allocate(4096));

  private RecordReader() {}

  /** The record at {@code offset}, at index 0 of the returned (per-thread) buffer. */
  static ByteBuffer read(DataLog log, long offset) throws IOException {
    ByteBuffer b = BUFFERS.get();
    b.clear().limit(FIRST_READ_BYTES);
    int n = log.read(offset, b);
    if (n < RecordFormat.HEADER_BYTES || !RecordFormat.plausibleHeader(b, 0)) {
      throw new CorruptLogException(log.path(), offset, "record header", "a valid header",
          n + " readable bytes");
    }
    int raw = RecordFormat.HEADER_BYTES + RecordFormat.keyLength(b, 0)
        + RecordFormat.valueLength(b, 0);
    if (raw > n) {
      if (raw > b.capacity()) {
        ByteBuffer bigger = ByteBuffer.allocate(raw);
        bigger.put(b.flip());
        b = bigger;
        if (raw <= 1 << 20) {
          BUFFERS.set(b);
        }
      }
      b.limit(raw).position(n);
      if (log.read(offset + n, b) != raw - n) {
        throw new CorruptLogException(log.path(), offset, "record length", raw + " bytes",
            "the log ends first");
      }
    }
    int tag = log.positionTag(offset);
    if (!RecordFormat.crcMatches(b, 0, tag)) {
      throw new CorruptLogException(log.path(), offset, "record CRC32C",
          Integer.toHexString(RecordFormat.expectedCrc(b, 0, tag)),
          Integer.toHexString(b.getInt(0)));
    }
    return b;
  }

  /** Whether the record at {@code offset} holds {@code key}. */
  static boolean keyAt(DataLog log, long offset, byte[] key) throws IOException {
    return RecordFormat.keyEquals(read(log, offset), 0, key);
  }

  /** Whether the record at {@code offset} holds the key in {@code key[from, from+length)}. */
  static boolean keyAt(DataLog log, long offset, byte[] key, int from, int length)
      throws IOException {
    return RecordFormat.keyEquals(read(log, offset), 0, key, from, length);
  }

  /** The key of the record at {@code offset}. */
  static byte[] key(DataLog log, long offset) throws IOException {
    ByteBuffer b = read(log, offset);
    return RecordFormat.copy(b, RecordFormat.HEADER_BYTES, RecordFormat.keyLength(b, 0));
  }
}
