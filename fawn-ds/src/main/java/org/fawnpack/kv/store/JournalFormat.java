package org.fawnpack.kv.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The byte layout of a {@link Journal} segment. A segment starts with a 16-byte header
 * ({@code FJNL}, format version, segment number) and holds records, each
 *
 * <pre>
 *   offset size
 *       0    4  body length n
 *       4    4  CRC32C of the body
 *       8    n  body: kind (1 byte), then by kind
 *                 NAME    (16) id (4), log id (8), forced bytes (8), path length (2),
 *                         path (UTF-8)
 *                 PUT     (1) id (4), sequence (8), key length (4), value length (4), key, value
 *                 DELETE  (2) id (4), sequence (8), key length (4), key
 * </pre>
 *
 * A NAME record binds a small id to one datastore file (its path and the log id in its header)
 * for the rest of its segment, so the writes after it need not repeat the path; it also says how
 * many of the file's bytes were on the device then. A datastore names itself again after each
 * force of its file, so its last NAME tells how far the file was surely forced: every record
 * the file holds after that point is in the journal.
 */
final class JournalFormat {
  static final int MAGIC = 0x464a4e4c; // "FJNL"
  static final int VERSION = 1;
  static final int HEADER_BYTES = 16;
  static final int RECORD_HEADER_BYTES = 8;
  static final byte KIND_NAME = 16;
  static final byte KIND_PUT = RecordFormat.KIND_PUT;
  static final byte KIND_DELETE = RecordFormat.KIND_DELETE;
  /** Bodies larger than this are damage, not records (a value is at most 16 MiB). */
  static final int MAX_BODY_BYTES = 17 << 20;

  private JournalFormat() {}

  static {
    if (KIND_PUT == KIND_NAME || KIND_DELETE == KIND_NAME) {
      throw new AssertionError("journal kinds overlap");
    }
  }

  static ByteBuffer header(long segment) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
    b.putInt(MAGIC).putInt(VERSION).putLong(segment).flip();
    return b;
  }

  static int nameBytes(byte[] path) {
    return RECORD_HEADER_BYTES + 1 + 4 + 8 + 8 + 2 + path.length;
  }

  static int writeBytes(byte kind, byte[] key, byte[] value) {
    return RECORD_HEADER_BYTES + 1 + 4 + 8 + 4 + (kind == KIND_PUT ? 4 + value.length : 0)
        + key.length;
  }

  static void putName(ByteBuffer out, int id, long logId, long forcedBytes, byte[] path) {
    int start = out.position();
    out.position(start + RECORD_HEADER_BYTES);
    out.put(KIND_NAME).putInt(id).putLong(logId).putLong(forcedBytes)
        .putShort((short) path.length).put(path);
    seal(out, start);
  }

  static void putWrite(ByteBuffer out, byte kind, int id, long sequence, byte[] key,
      byte[] value) {
    int start = out.position();
    out.position(start + RECORD_HEADER_BYTES);
    out.put(kind).putInt(id).putLong(sequence).putInt(key.length);
    if (kind == KIND_PUT) {
      out.putInt(value.length);
    }
    out.put(key);
    if (kind == KIND_PUT) {
      out.put(value);
    }
    seal(out, start);
  }

  /** Writes length and CRC in front of the body that ends at {@code out.position()}. */
  private static void seal(ByteBuffer out, int start) {
    int end = out.position();
    int bodyLength = end - start - RECORD_HEADER_BYTES;
    out.putInt(start, bodyLength);
    out.putInt(start + 4, crc(out, start + RECORD_HEADER_BYTES, end));
  }

  static int crc(ByteBuffer b, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(b.duplicate().limit(to).position(from));
    return (int) crc.getValue();
  }

  /**
   * One decoded record; {@code key} and {@code value} are null for a NAME, whose
   * {@code sequence} is the number of its file's bytes that were forced.
   */
  record Decoded(byte kind, int id, long logId, String path, long sequence, byte[] key,
      byte[] value) {}

  /** Decodes a body whose CRC matched; null when its fields do not fit its length. */
  static Decoded decode(ByteBuffer body) {
    if (body.remaining() < 1 + 4 + 8 + 2) {
      return null;
    }
    byte kind = body.get();
    int id = body.getInt();
    if (kind == KIND_NAME) {
      if (body.remaining() < 8 + 8 + 2) {
        return null;
      }
      long logId = body.getLong();
      long forcedBytes = body.getLong();
      byte[] path = new byte[Short.toUnsignedInt(body.getShort())];
      if (body.remaining() != path.length) {
        return null;
      }
      body.get(path);
      return new Decoded(kind, id, logId, new String(path, StandardCharsets.UTF_8),
          forcedBytes, null, null);
    }
    if ((kind != KIND_PUT && kind != KIND_DELETE) || body.remaining() < 8 + 4) {
      return null;
    }
    long sequence = body.getLong();
    int keyLength = body.getInt();
    int valueLength = 0;
    if (kind == KIND_PUT) {
      if (body.remaining() < 4) {
        return null;
      }
      valueLength = body.getInt();
    }
    if (keyLength < 0 || valueLength < 0 || (long) keyLength + valueLength != body.remaining()) {
      return null;
    }
    byte[] key = new byte[keyLength];
    byte[] value = new byte[valueLength];
    body.get(key).get(value);
    return new Decoded(kind, id, 0, null, sequence, key, value);
  }
}
