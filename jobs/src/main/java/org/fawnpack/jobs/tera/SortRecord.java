package org.fawnpack.jobs.tera;

/**
 * The sort benchmark's record: 100 bytes, a 10-byte key then a 90-byte value, stored back to back
 * with no separator or length prefix (the layout of the stock teragen/terasort files).
 */
public final class SortRecord {
  public static final int KEY_BYTES = 10;
  public static final int VALUE_BYTES = 90;
  public static final int BYTES = KEY_BYTES + VALUE_BYTES;

  private SortRecord() {}

  /** Unsigned lexicographic order of two 10-byte keys, the order terasort sorts by. */
  public static int compareKeys(byte[] a, int aOffset, byte[] b, int bOffset) {
    return java.util.Arrays.compareUnsigned(a, aOffset, aOffset + KEY_BYTES,
        b, bOffset, bOffset + KEY_BYTES);
  }

  /** The key as hex, for messages. */
  public static String keyHex(byte[] record, int offset) {
    StringBuilder hex = new StringBuilder(2 * KEY_BYTES);
    for (int i = 0; i < KEY_BYTES; i++) {
      hex.append(String.format("%02x", record[offset + i] & 0xff));
    }
    return hex.toString();
  }
}
