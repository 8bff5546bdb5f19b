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

  /** Whether every position of {@code inner} is in this arc. */
  public boolean covers(KeyRange inner) {
    if (startExclusive == endInclusive) {
      return true;
    }
    if (inner.startExclusive == inner.endInclusive) {
      return false; // the whole ring in a part of it
    }
    // Distances from this arc's start: inner must start no earlier and end no later.
    long length = endInclusive - startExclusive;
    long from = inner.startExclusive - startExclusive;
    long to = inner.endInclusive - startExclusive;
    return Long.compareUnsigned(from, to) < 0 && Long.compareUnsigned(to, length) <= 0;
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
