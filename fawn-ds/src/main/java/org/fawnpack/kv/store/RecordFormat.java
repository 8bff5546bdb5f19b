package org.fawnpack.kv.store;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Byte layout of one data-log record (big-endian), written and checked here only.
 *
 * <pre>
 *  offset  size  field
 *       0     4  CRC32C of bytes 4 .. 20+keyLength+valueLength (rest of header, key, value),
 *                XOR the record's position tag (format version 2; 0 in version 1)
 *       4     1  kind: 1 = put, 2 = delete (tombstone; value length 0), 3 = range mark
 *       5     3  key length, unsigned, 1 .. 65,536
 *       8     4  value length, 0 .. 16,777,216
 *      12     8  sequence number
 *      20     k  key
 *    20+k     v  value
 *             p  zero padding to the next multiple of 8 (not covered by the CRC)
 * </pre>
 *
 * Records start at multiples of 8 so that the index can address 32 GiB with a 32-bit offset.
 *
 * <p>A <em>range mark</em> (kind 3) is not a write: its 16-byte "key" holds a ring range
 * (start exclusive, end inclusive, as {@link KeyRange}), its value is empty, and its sequence
 * field repeats the file's last sequence number (it takes no number of its own). It says that
 * from its place on the file holds only that range's keys: a split that keeps one piece of a
 * file in place writes it ({@link RangeMarks}). Scans hand out no mark ({@link LogScanner}).
 *
 * <p>The position tag ({@link #positionTag}) ties a record to the log id and offset it was
 * written at: bytes that only look like a record (a record stored inside a value, a record
 * copied from another place) fail the check, so a scan that resynchronises after damage can
 * land on real records only. Copying a record elsewhere swaps its tag in O(1)
 * ({@link #retag}); the CRC of its contents is not recomputed.
 */
final class RecordFormat {

  static final int HEADER_BYTES = 20;
  static final int ALIGNMENT = 8;
  static final byte KIND_PUT = 1;
  static final byte KIND_DELETE = 2;
  static final byte KIND_RANGE = 3;
  /** A range mark's key: the range's two ends. */
  static final int RANGE_KEY_BYTES = 2 * Long.BYTES;
  static final int MAX_KEY_BYTES = 64 * 1024;
  static final int MAX_VALUE_BYTES = 16 * 1024 * 1024;
  static final int MAX_RECORD_BYTES = alignedLength(MAX_KEY_BYTES, MAX_VALUE_BYTES);

  private RecordFormat() {}

  /** Bytes a record takes in the log, padding included. */
  static int alignedLength(int keyLength, int valueLength) {
    int raw = HEADER_BYTES + keyLength + valueLength;
    return (raw + ALIGNMENT - 1) & -ALIGNMENT;
  }

  static void checkKey(byte[] key) {
    if (key == null) {
      throw new NullPointerException("key");
    }
    if (key.length == 0 || key.length > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key length must be 1.." + MAX_KEY_BYTES + " bytes, was " + key.length);
    }
  }

  static void checkValue(byte[] value) {
    if (value == null) {
      throw new NullPointerException("value");
    }
    if (value.length > MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "value length must be at most " + MAX_VALUE_BYTES + " bytes, was " + value.length);
    }
  }

  /** A sequence number a chain's head gave: they start at 1. */
  static void checkSequence(long sequence) {
    if (sequence < 1) {
      throw new IllegalArgumentException("sequence numbers start at 1: " + sequence);
    }
  }

  /**
   * The 32-bit tag of a record at {@code offset} in the log with id {@code logId}: the
   * MurmurHash3 64-bit finaliser of {@code logId XOR (offset * 0x9E3779B97F4A7C15)}, high and
   * low halves XORed. Distinct offsets of one log give distinct 64-bit values.
   */
  static int positionTag(long logId, long offset) {
    long x = logId ^ (offset * 0x9E3779B97F4A7C15L);
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return (int) (x ^ (x >>> 32));
  }

  /** Moves the record at {@code b[at]} from a place tagged {@code from} to one tagged {@code to}. */
  static void retag(ByteBuffer b, int at, int from, int to) {
    b.putInt(at, b.getInt(at) ^ from ^ to);
  }

  /** Writes a whole record (with padding) at {@code out}'s position, tagged with {@code tag}. */
  static void encode(ByteBuffer out, byte kind, byte[] key, byte[] value, long sequence,
      int tag) {
    int start = out.position();
    out.putInt(0);
    out.putInt(((kind & 0xff) << 24) | (key.length - 1));
    out.putInt(value.length);
    out.putLong(sequence);
    out.put(key);
    out.put(value);
    int end = out.position();
    int padded = start + alignedLength(key.length, value.length);
    while (out.position() < padded) {
      out.put((byte) 0);
    }
    out.putInt(start, crc(out, start + 4, end) ^ tag);
  }

  /**
   * CRC32C of {@code buffer[from, to)}; the buffer's position and limit are as they were
   * afterwards (a direct buffer is checksummed in place rather than through a view object).
   * Not for a buffer other threads move meanwhile.
   */
  static int crc(ByteBuffer buffer, int from, int to) {
    CRC32C crc = new CRC32C();
    if (buffer.hasArray()) {
      crc.update(buffer.array(), buffer.arrayOffset() + from, to - from);
    } else {
      int position = buffer.position();
      int limit = buffer.limit();
      buffer.limit(to).position(from);
      crc.update(buffer);
      buffer.limit(limit).position(position);
    }
    return (int) crc.getValue();
  }

  static byte kind(ByteBuffer b, int at) {
    return (byte) (b.getInt(at + 4) >>> 24);
  }

  static int keyLength(ByteBuffer b, int at) {
    return (b.getInt(at + 4) & 0xffffff) + 1;
  }

  static int valueLength(ByteBuffer b, int at) {
    return b.getInt(at + 8);
  }

  static long sequence(ByteBuffer b, int at) {
    return b.getLong(at + 12);
  }

  /**
   * Whether the header at {@code at} holds plausible values: a known kind, lengths in range and a
   * tombstone without value. Needs {@link #HEADER_BYTES} readable bytes.
   */
  static boolean plausibleHeader(ByteBuffer b, int at) {
    byte kind = kind(b, at);
    int keyLength = keyLength(b, at);
    int valueLength = valueLength(b, at);
    if (keyLength > MAX_KEY_BYTES || valueLength < 0 || valueLength > MAX_VALUE_BYTES) {
      return false;
    }
    return kind == KIND_PUT || (kind == KIND_DELETE && valueLength == 0)
        || (kind == KIND_RANGE && keyLength == RANGE_KEY_BYTES && valueLength == 0);
  }

  /** A range mark's "key": the range's ends, big-endian. */
  static byte[] rangeKey(KeyRange range) {
    return ByteBuffer.allocate(RANGE_KEY_BYTES).putLong(range.startExclusive())
        .putLong(range.endInclusive()).array();
  }

  /** The range of the range mark at {@code b[at]}. */
  static KeyRange rangeOf(ByteBuffer b, int at) {
    return new KeyRange(b.getLong(at + HEADER_BYTES), b.getLong(at + HEADER_BYTES + Long.BYTES));
  }

  /**
   * Whether the stored CRC matches for a record at a place tagged {@code tag}; the whole record
   * must be in {@code b}.
   */
  static boolean crcMatches(ByteBuffer b, int at, int tag) {
    return b.getInt(at) == expectedCrc(b, at, tag);
  }

  /** What the stored CRC field of the record at {@code b[at]} must be at a place tagged so. */
  static int expectedCrc(ByteBuffer b, int at, int tag) {
    int end = at + HEADER_BYTES + keyLength(b, at) + valueLength(b, at);
    return crc(b, at + 4, end) ^ tag;
  }

  /** Whether the key stored at {@code at} equals {@code key}; the key bytes must be in {@code b}. */
  static boolean keyEquals(ByteBuffer b, int at, byte[] key) {
    return keyEquals(b, at, key, 0, key.length);
  }

  /** Same, for a key held in {@code key[from, from+length)}. */
  static boolean keyEquals(ByteBuffer b, int at, byte[] key, int from, int length) {
    if (keyLength(b, at) != length) {
      return false;
    }
    int start = at + HEADER_BYTES;
    if (b.hasArray()) {
      int base = b.arrayOffset() + start;
      return java.util.Arrays.equals(b.array(), base, base + length, key, from, from + length);
    }
    return b.slice(start, length).equals(ByteBuffer.wrap(key, from, length));
  }

  static byte[] copy(ByteBuffer b, int from, int length) {
    byte[] out = new byte[length];
    b.get(from, out);
    return out;
  }
}
