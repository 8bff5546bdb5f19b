package org.fawnpack.jobs.md5;

/**
 * The record format md5gen writes and md5search reads: each value as 4 bytes, big-endian (the
 * thesis's {@code struct.pack(">i", i)}), one after the other with no header or separator, so a
 * file of n records is exactly 4n bytes and record k starts at byte 4k.
 */
final class ValueRecords {
  static final int RECORD_BYTES = 4;

  private ValueRecords() {}

  /** Writes {@code value}'s low 32 bits big-endian into {@code buf} at {@code off}. */
  static void encode(long value, byte[] buf, int off) {
    buf[off] = (byte) (value >>> 24);
    buf[off + 1] = (byte) (value >>> 16);
    buf[off + 2] = (byte) (value >>> 8);
    buf[off + 3] = (byte) value;
  }

  /** The unsigned value of the record at {@code off}. */
  static long decode(byte[] buf, int off) {
    return ((buf[off] & 0xFFL) << 24) | ((buf[off + 1] & 0xFFL) << 16)
        | ((buf[off + 2] & 0xFFL) << 8) | (buf[off + 3] & 0xFFL);
  }

  /**
   * Splits {@code total} items into {@code parts} runs whose sizes differ by at most one; returns
   * the start of each run and, last, {@code total}.
   */
  static long[] evenCuts(long total, int parts) {
    long[] cuts = new long[parts + 1];
    long base = total / parts;
    long extra = total % parts;
    for (int i = 0; i < parts; i++) {
      cuts[i + 1] = cuts[i] + base + (i < extra ? 1 : 0);
    }
    return cuts;
  }
}
