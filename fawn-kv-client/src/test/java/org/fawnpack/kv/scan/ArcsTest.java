package org.fawnpack.kv.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.KeyRange;
import org.junit.jupiter.api.Test;

/**
 * Ranges against arcs, checked position by position: {@link KeyRange#covers} against a walk
 * over every position of small ranges (near zero, near the wrap and in the middle), and
 * {@link Arcs#cut} on random rings: pieces that follow each other, each inside one arc, that
 * together are the range.
 */
class ArcsTest {
  private static final long[] BASES = {0L, -100L, Long.MIN_VALUE - 50, 0x1234_5678_9abc_def0L};
  private final Random random = new Random(26112026);

  private KeyRange smallRange(long base) {
    long start = base + random.nextInt(120);
    return new KeyRange(start, start + 1 + random.nextInt(80));
  }

  @Test
  void covers_isEveryPositionInside() {
    for (int i = 0; i < 20_000; i++) {
      long base = BASES[random.nextInt(BASES.length)];
      KeyRange outer = random.nextInt(50) == 0 ? KeyRange.wholeRing() : smallRange(base);
      KeyRange inner = smallRange(base);
      boolean every = true;
      for (long p = inner.startExclusive() + 1; ; p++) {
        every &= outer.contains(p);
        if (p == inner.endInclusive()) {
          break;
        }
      }
      assertEquals(every, outer.covers(inner), outer + " covers " + inner);
    }
    assertTrue(KeyRange.wholeRing().covers(KeyRange.wholeRing()));
    assertFalse(new KeyRange(5, 4).covers(KeyRange.wholeRing()));
    assertTrue(new KeyRange(5, 4).covers(new KeyRange(5, 3)), "all but positions 4 and 5");
    assertFalse(new KeyRange(5, 4).covers(new KeyRange(4, 3)), "all but 4: 5 is outside");
  }

  private Ring randomRing() {
    Ring ring = Ring.empty(new RingHash(("arcs test ring " + random.nextInt()).getBytes(
        StandardCharsets.UTF_8)), 1 + random.nextInt(4), 3);
    int members = 1 + random.nextInt(6);
    for (int m = 0; m < members; m++) {
      ring = ring.withMember(new Member("b" + m, "127.0.0." + (m + 1), 7000));
    }
    return ring;
  }

  @Test
  void cut_piecesFollowEachOther_eachInsideOneArc_togetherTheRange() {
    for (int i = 0; i < 2_000; i++) {
      Ring ring = randomRing();
      KeyRange range = switch (random.nextInt(3)) {
        case 0 -> KeyRange.wholeRing();
        case 1 -> ring.chains().get(random.nextInt(ring.chains().size())).range();
        default -> new KeyRange(random.nextLong(), random.nextLong());
      };
      List<KeyRange> pieces = Arcs.cut(range, ring);
      long at = range.startExclusive();
      double length = 0;
      for (KeyRange piece : pieces) {
        assertEquals(at, piece.startExclusive(), "pieces follow each other: " + pieces);
        assertTrue(ring.chainFor(piece.endInclusive()).range().covers(piece),
            piece + " inside one arc of " + ring);
        length += Arcs.length(piece);
        at = piece.endInclusive();
      }
      assertEquals(range.endInclusive(), at);
      assertEquals(Arcs.length(range), length, Arcs.length(range) * 1e-12);
      long arcsInside = ring.chains().stream().filter(c -> range.covers(c.range())).count();
      assertTrue(pieces.size() >= arcsInside && pieces.size() <= arcsInside + 2,
          pieces.size() + " pieces for a range holding " + arcsInside + " whole arcs");
    }
  }
}
