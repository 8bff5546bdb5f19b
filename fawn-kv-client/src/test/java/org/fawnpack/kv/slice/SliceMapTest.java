package org.fawnpack.kv.slice;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Slice maps: even shares, few moves when front-ends come and go, and in a handover exactly
 * the buckets whose owner changes are served by nobody (the oracle: two first maps, one per
 * set of front-ends, compared bucket by bucket).
 */
class SliceMapTest {
  private static List<SliceMap.Endpoint> frontEnds(int... ids) {
    List<SliceMap.Endpoint> all = new ArrayList<>();
    for (int id : ids) {
      all.add(new SliceMap.Endpoint("f" + id, "127.0.0.1", 7000 + id));
    }
    return all;
  }

  private static int[] range(int n) {
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i;
    }
    return ids;
  }

  @Test
  void shares_areEvenWithinHalfToOneAndAHalfOfTheMean() {
    Random random = new Random(1);
    for (int n = 1; n <= 8; n++) {
      SliceMap map = SliceMap.first(random.nextLong(), frontEnds(range(n)));
      int[] counts = new int[n];
      for (int b = 0; b < SliceMap.BUCKETS; b++) {
        counts[Integer.parseInt(map.ownerOf(b).name().substring(1))]++;
      }
      double mean = SliceMap.BUCKETS / (double) n;
      for (int c : counts) {
        assertTrue(c > mean * 0.5 && c < mean * 1.5, n + " front-ends: a share of " + c);
      }
    }
  }

  @Test
  void comingAndGoing_movesOnlyTheBucketsOfTheOneThatCameOrWent() {
    Random random = new Random(2);
    for (int trial = 0; trial < 50; trial++) {
      long seed = random.nextLong();
      int n = 2 + random.nextInt(6);
      SliceMap before = SliceMap.first(seed, frontEnds(range(n)));
      SliceMap joined = SliceMap.first(seed, frontEnds(range(n + 1)));
      int[] fewer = new int[n - 1];
      int gone = random.nextInt(n);
      for (int i = 0, j = 0; i < n; i++) {
        if (i != gone) {
          fewer[j++] = i;
        }
      }
      SliceMap left = SliceMap.first(seed, frontEnds(fewer));
      for (int b = 0; b < SliceMap.BUCKETS; b++) {
        String owner = before.ownerOf(b).name();
        if (!joined.ownerOf(b).name().equals(owner)) {
          assertEquals("f" + n, joined.ownerOf(b).name(), "bucket " + b + " moved elsewhere");
        }
        if (!owner.equals("f" + gone)) {
          assertEquals(owner, left.ownerOf(b).name(), "bucket " + b + " moved needlessly");
        }
      }
    }
  }

  @Test
  void handover_servesNobodyOnExactlyTheMovingBuckets_untilSettled() {
    Random random = new Random(3);
    for (int trial = 0; trial < 30; trial++) {
      long seed = random.nextLong();
      SliceMap start = SliceMap.first(seed, frontEnds(0, 1, 2));
      SliceMap handover = start.handOverTo(frontEnds(1, 2, 3));
      SliceMap oldOwners = SliceMap.first(seed, frontEnds(0, 1, 2));
      SliceMap newOwners = SliceMap.first(seed, frontEnds(1, 2, 3));
      int moving = 0;
      for (int b = 0; b < SliceMap.BUCKETS; b++) {
        boolean moves = !oldOwners.ownerOf(b).name().equals(newOwners.ownerOf(b).name());
        assertEquals(!moves, handover.servable(b), "bucket " + b);
        assertEquals(newOwners.ownerOf(b), handover.ownerOf(b));
        assertTrue(handover.servedBefore(oldOwners.ownerOf(b).name(), b));
        moving += moves ? 1 : 0;
      }
      assertTrue(moving > 0);
      SliceMap settled = handover.settle();
      assertEquals(start.epoch() + 2, settled.epoch());
      for (int b = 0; b < SliceMap.BUCKETS; b++) {
        assertTrue(settled.servable(b));
      }
    }
  }

  @Test
  void codec_roundTripsAndNamesTheBadLine() {
    SliceMap map = SliceMap.first(-5, frontEnds(0, 1)).handOverTo(frontEnds(1, 2));
    assertEquals(map, SliceCodec.decode(SliceCodec.encode(map), "test"));
    byte[] key = "k".getBytes(StandardCharsets.UTF_8);
    assertEquals(map.bucketOf(key), SliceCodec.decode(SliceCodec.encode(map), "t").bucketOf(key));
    String bad = new String(SliceCodec.encode(map), StandardCharsets.UTF_8)
        .replace("frontend f1 127.0.0.1 7001", "frontend f1 127.0.0.1 seventy");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SliceCodec.decode(bad.getBytes(StandardCharsets.UTF_8), "/fawn-kv/x/slices"));
    assertTrue(e.getMessage().startsWith("/fawn-kv/x/slices line 4"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SliceMap.first(1, List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> SliceMap.first(1, List.of(frontEnds(0).get(0), frontEnds(0).get(0))));
    assertFalse(map.settled());
  }
}
