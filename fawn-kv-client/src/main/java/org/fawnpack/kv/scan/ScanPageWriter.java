package org.fawnpack.kv.scan;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Writes a SCAN_PAGE payload ({@link ScanPage#encode}'s layout) entry by entry, as a back-end
 * reads them, straight from the engine's keys: no list of entries, no user-key copies, and one
 * array that is the frame's payload. The six numbers that lead the page are filled in last.
 */
public final class ScanPageWriter {
  private static final int LEAD_BYTES = 6 * Long.BYTES;
  private static final int ENGINE_KEY_PREFIX = Long.BYTES; // the ring position

  private byte[] bytes;
  private int end = LEAD_BYTES;
  private int count;
  private long entryBytes;

  /** A writer for a page of about {@code pageBytes} of keys and values. */
  public ScanPageWriter(int pageBytes) {
    this.bytes = new byte[LEAD_BYTES + Math.min(pageBytes, 4 << 20) + 64 * 1024];
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
    int keyLength = engineKey.length - ENGINE_KEY_PREFIX;
    int needed = 2 * Integer.BYTES + keyLength + value.length;
    if (bytes.length - end < needed) {
      long grown = Math.max(2L * bytes.length, (long) end + needed);
      if (grown > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException("a scan page past " + end + " bytes");
      }
      bytes = Arrays.copyOf(bytes, (int) grown);
    }
    ByteBuffer out = ByteBuffer.wrap(bytes, end, needed);
    out.putInt(keyLength).put(engineKey, ENGINE_KEY_PREFIX, keyLength).putInt(value.length)
        .put(value);
    end += needed;
    count++;
    entryBytes += keyLength + value.length;
  }

  /** The payload, with the page's numbers as {@link ScanPage} names them. */
  public byte[] finish(long lastExamined, boolean done, long viewSequence, long offsetReached,
      long viewBytes) {
    ByteBuffer.wrap(bytes, 0, LEAD_BYTES).putLong(lastExamined).putLong(done ? 1 : 0)
        .putLong(viewSequence).putLong(offsetReached).putLong(viewBytes).putLong(count);
    return end == bytes.length ? bytes : Arrays.copyOf(bytes, end);
  }
}
