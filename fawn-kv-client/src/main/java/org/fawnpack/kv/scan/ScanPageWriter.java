package org.fawnpack.kv.scan;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes a SCAN_PAGE payload ({@link ScanPage}'s layout) entry by entry as a back-end reads
 * them, straight from the engine's keys: no list of entries and no user-key copies. Entries
 * go into chunks of {@link #CHUNK_BYTES}, kept from page to page, and {@link #finish} copies
 * them once into the payload's array. Chunks, because a page is about a megabyte and an array
 * that large is a humongous object to G1 on a back-end's heap (a region of 1 MB there): one
 * per page is the frame's own; a growing buffer would have made several.
 */
public final class ScanPageWriter {
  static final int CHUNK_BYTES = 128 << 10;
  private static final int LEAD_BYTES = 6 * Long.BYTES;
  private static final int ENGINE_KEY_PREFIX = Long.BYTES; // the ring position

  private final List<byte[]> chunks = new ArrayList<>();
  /** A length's four bytes on their way into a chunk (two per entry: not an array each). */
  private final byte[] intBytes = new byte[4];
  /** Bytes written after the lead, across the chunks. */
  private long written;
  private int count;
  private long entryBytes;

  /** Starts a new page, keeping the chunks of the last one. */
  public void reset() {
    written = 0;
    count = 0;
    entryBytes = 0;
  }

  /** Entries written so far. */
  public int count() {
    return count;
  }

  /** User keys' and values' bytes written so far (what a page's size counts). */
  public long entryBytes() {
    return entryBytes;
  }

  /** Adds the entry of an engine key (ring position, then the user key) and its value. */
  public void add(byte[] engineKey, byte[] value) {
    add(engineKey, 0, engineKey.length, value, 0, value.length);
  }

  /**
   * As {@link #add(byte[], byte[])}, from where the engine key and value lie (a record read in
   * place from the log: no copy of either on the way).
   */
  public void add(byte[] keys, int engineKeyOffset, int engineKeyLength, byte[] values,
      int valueOffset, int valueLength) {
    int keyLength = engineKeyLength - ENGINE_KEY_PREFIX;
    writeInt(keyLength);
    write(keys, engineKeyOffset + ENGINE_KEY_PREFIX, keyLength);
    writeInt(valueLength);
    write(values, valueOffset, valueLength);
    count++;
    entryBytes += keyLength + valueLength;
  }

  /** The payload, with the page's numbers as {@link ScanPage} names them. */
  public byte[] finish(long lastExamined, boolean done, long viewSequence, long offsetReached,
      long viewBytes) {
    if (LEAD_BYTES + written > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("a scan page of " + (LEAD_BYTES + written) + " bytes");
    }
    byte[] payload = new byte[(int) (LEAD_BYTES + written)];
    int at = 0;
    for (long number : new long[] {lastExamined, done ? 1 : 0, viewSequence, offsetReached,
        viewBytes, count}) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        payload[at++] = (byte) (number >>> shift);
      }
    }
    for (int i = 0; at < payload.length; i++) {
      int n = Math.min(CHUNK_BYTES, payload.length - at);
      System.arraycopy(chunks.get(i), 0, payload, at, n);
      at += n;
    }
    return payload;
  }

  private void writeInt(int value) {
    intBytes[0] = (byte) (value >>> 24);
    intBytes[1] = (byte) (value >>> 16);
    intBytes[2] = (byte) (value >>> 8);
    intBytes[3] = (byte) value;
    write(intBytes, 0, 4);
  }

  private void write(byte[] bytes, int from, int length) {
    while (length > 0) {
      int chunk = (int) (written / CHUNK_BYTES);
      int offset = (int) (written % CHUNK_BYTES);
      if (chunk == chunks.size()) {
        chunks.add(new byte[CHUNK_BYTES]);
      }
      int n = Math.min(length, CHUNK_BYTES - offset);
      System.arraycopy(bytes, from, chunks.get(chunk), offset, n);
      written += n;
      from += n;
      length -= n;
    }
  }
}
