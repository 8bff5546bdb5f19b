package org.fawnpack.kv.store;

/**
 * An arc of the 64-bit ring of {@link RingPositions}: positions p with
 * {@code startExclusive < p <= endInclusive} (unsigned), wrapping past 2^64 - 1 when the start
 * is not below the end; start == end is the whole ring.
 */
public record KeyRange(long startExclusive, long endInclusive) {

  public static KeyRange wholeRing() {
    return new KeyRange(0, 0);
  }

  public boolean contains(long position) {
    if (startExclusive == endInclusive) {
      return true;
    }
    boolean afterStart = Long.compareUnsigned(position, startExclusive) > 0;
    boolean atOrBeforeEnd = Long.compareUnsigned(position, endInclusive) <= 0;
    return Long.compareUnsigned(startExclusive, endInclusive) < 0
        ? afterStart && atOrBeforeEnd : afterStart || atOrBeforeEnd;
  }

  public boolean contains(byte[] key) {
    return contains(RingPositions.of(key));
  }

  /** Whether the two arcs share a position. */
  public boolean overlaps(KeyRange other) {
    return contains(other.endInclusive) || other.contains(endInclusive)
        || startExclusive == endInclusive || other.startExclusive == other.endInclusive;
  }

  @Override
  public String toString() {
    return "(" + Long.toUnsignedString(startExclusive, 16) + ", "
        + Long.toUnsignedString(endInclusive, 16) + "]";
  }
}
