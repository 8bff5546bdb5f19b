package org.fawnpack.kv.scan;

import java.util.ArrayList;
import java.util.List;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.KeyRange;

/** Ranges of the ring against a ring's arcs: cutting one at arc ends, measuring lengths. */
public final class Arcs {
  private static final double RING_LENGTH = 0x1p64;

  private Arcs() {}

  /** The pieces of {@code range} that lie each inside one arc of {@code ring}, in ring order. */
  public static List<KeyRange> cut(KeyRange range, Ring ring) {
    List<KeyRange> pieces = new ArrayList<>();
    long start = range.startExclusive();
    long length = range.endInclusive() - start; // 0: the whole ring
    long covered = 0;
    do {
      long arcEnd = ring.chainFor(start + 1).range().endInclusive();
      long toArcEnd = arcEnd - start; // 0: the arc ends where the piece starts (a whole ring)
      boolean arcEndsInside = toArcEnd != 0
          && (length == 0 || Long.compareUnsigned(covered + toArcEnd, length) < 0)
          && Long.compareUnsigned(covered + toArcEnd, covered) > 0;
      long end = arcEndsInside ? arcEnd : range.endInclusive();
      pieces.add(new KeyRange(start, end));
      covered += end - start;
      start = end;
    } while (start != range.endInclusive());
    return pieces;
  }

  /** The number of positions in {@code range}, as a double (the whole ring is 2^64). */
  public static double length(KeyRange range) {
    long length = range.endInclusive() - range.startExclusive();
    return length == 0 ? RING_LENGTH : unsigned(length);
  }

  private static double unsigned(long value) {
    return value >= 0 ? value : (value >>> 1) * 2.0 + (value & 1);
  }
}
