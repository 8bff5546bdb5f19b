package org.fawnpack.jobs.tera;

/**
 * The sort benchmark's data checksum: the sum of every record's CRC32 as a 128-bit unsigned
 * number, so it does not depend on the order of the records. Printed as stock teravalidate prints
 * it: lower-case hex without leading zeros.
 */
public final class Checksum128 {
  private long high;
  private long low;

  public Checksum128() {
  }

  public Checksum128(long high, long low) {
    this.high = high;
    this.low = low;
  }

  /** Replaces the value (for Writables that Hadoop reuses). */
  public void set(long newHigh, long newLow) {
    high = newHigh;
    low = newLow;
  }

  /** Adds an unsigned value (a CRC32, or a partial sum's low half). */
  public void add(long unsigned) {
    long sum = low + unsigned;
    if (Long.compareUnsigned(sum, low) < 0) {
      high++;
    }
    low = sum;
  }

  public void add(Checksum128 other) {
    add(other.low);
    high += other.high;
  }

  public long high() {
    return high;
  }

  public long low() {
    return low;
  }

  /** Parses the hex form {@link #toString} prints (up to 32 digits). */
  public static Checksum128 parse(String hex) {
    String digits = hex.trim();
    if (digits.isEmpty() || digits.length() > 32 || !digits.matches("[0-9a-fA-F]+")) {
      throw new NumberFormatException("not a checksum (1 to 32 hex digits): '" + hex + "'");
    }
    int split = Math.max(0, digits.length() - 16);
    long high = split == 0 ? 0 : Long.parseUnsignedLong(digits.substring(0, split), 16);
    return new Checksum128(high, Long.parseUnsignedLong(digits.substring(split), 16));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Checksum128 c && c.high == high && c.low == low;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(high) * 31 + Long.hashCode(low);
  }

  @Override
  public String toString() {
    if (high == 0) {
      return Long.toHexString(low);
    }
    String lowHex = Long.toHexString(low);
    return Long.toHexString(high) + "0".repeat(16 - lowHex.length()) + lowHex;
  }
}
