package org.fawnpack.kv.store;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Byte layout of one data-log record (big-endian), written and checked here only.
 *
 * <pre>
 *  offset  size  field
 *       0     4  CRC32C of bytes 4 .. 20+keyLength+valueLength (rest of header, key, value)
 *       4     1  kind: 1 = put, 2 = delete (tombstone; value length 0)
 *       5     3  key length, unsigned, 1 .. 65,536
 *       8     4  value length, 0 .. 16,777,216
 *      12     8  sequence number
 *      20     k  key
 *    20+k     v  value
 *             p  zero padding to the next multiple of 8 (not covered by the CRC)
 * </pre>
 *
 * Records start at multiples of 8 so that the index can address 32 GiB with a 32-bit offset.
 */
final class RecordFormat {

  static final int HEADER_BYTES = 20;
  static final int ALIGNMENT = 8;
  static final byte KIND_PUT = 1;
  static final byte KIND_DELETE = 2;
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

  /** Writes a whole record (with padding) at {@code out}'s position. */
  static void encode(ByteBuffer out, byte kind, byte[] key, byte[] value, long sequence) {
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
    out.putInt(start, crc(out, start + 4, end));
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
    return kind == KIND_PUT || (kind == KIND_DELETE && valueLength == 0);
  }

  /** Whether the stored CRC matches; the whole record must be in {@code b}. */
  static boolean crcMatches(ByteBuffer b, int at) {
    int end = at + HEADER_BYTES + keyLength(b, at) + valueLength(b, at);
    return b.getInt(at) == crc(b, at + 4, end);
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
