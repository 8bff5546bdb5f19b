package org.fawnpack.kv.frontend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.Test;

/**
 * The cache's rule against a model: one key, a tail whose value only grows in version, writes
 * through the front-end (acknowledged, refused, or of unknown outcome and landing later, or
 * never) and gets whose answers come back in any order. The oracle is the tail itself: a value
 * served from the cache is the tail's value at that moment, so a client reading the tail
 * straight can never have seen a newer one; and real-time order among this front-end's reads.
 */
class HotCacheTest {
  private static final HotCache.Key KEY =
      HotCache.Key.of("hot".getBytes(StandardCharsets.UTF_8));

  private static HotCache.Entry value(int version) {
    return new HotCache.Entry(MessageType.VALUE, new byte[] {(byte) version});
  }

  @Test
  void answer_onAQuietStripe_isCachedAndServed() {
    HotCache cache = new HotCache(10);
    long stamp = cache.stampBeforeGet(KEY);
    cache.answered(KEY, stamp, value(1), true);
    assertArrayEquals(value(1).payload(), cache.lookup(KEY).payload());
    assertEquals(1, cache.hits());
  }

  @Test
  void answer_afterAWriteStartedOrWhileOneIsOnItsWay_isNotCached() {
    HotCache cache = new HotCache(10);
    long stamp = cache.stampBeforeGet(KEY);
    cache.writeStarting(KEY);
    cache.writeEnded(KEY, HotCache.WriteOutcome.ACKNOWLEDGED);
    cache.answered(KEY, stamp, value(1), true);
    assertNull(cache.lookup(KEY));
    cache.writeStarting(KEY);
    assertEquals(-1, cache.stampBeforeGet(KEY));
    cache.answered(KEY, -1, value(2), true);
    assertNull(cache.lookup(KEY));
  }

  @Test
  void overlappingGets_withDifferentAnswers_dropTheKey_withEqualAnswersKeepIt() {
    HotCache cache = new HotCache(10);
    long first = cache.stampBeforeGet(KEY);
    long second = cache.stampBeforeGet(KEY);
    cache.answered(KEY, first, value(1), true);
    cache.answered(KEY, second, value(1), true);
    assertNotNull(cache.lookup(KEY));
    long third = cache.stampBeforeGet(KEY);
    cache.answered(KEY, third, value(2), true); // a change passed the front-end by
    assertNull(cache.lookup(KEY));
  }

  @Test
  void noCapacity_orNotServed_cachesNothing() {
    HotCache none = new HotCache(0);
    none.answered(KEY, none.stampBeforeGet(KEY), value(1), true);
    assertNull(none.lookup(KEY));
    HotCache some = new HotCache(10);
    some.answered(KEY, some.stampBeforeGet(KEY), value(1), false);
    assertNull(some.lookup(KEY));
  }

  /** A get on its way: when it was sent, the stamp, and the version the tail answered. */
  private static final class Get {
    final long sentAt;
    final long stamp;
    Integer answer; // set once the tail answered
    int floor; // the least version a correct answer may have, from real-time order

    Get(long sentAt, long stamp, int floor) {
      this.sentAt = sentAt;
      this.stamp = stamp;
      this.floor = floor;
    }
  }

  @Test
  void unknownOutcome_keepsTheKeyUncached_untilALaterWriteIsAcknowledged() {
    HotCache cache = new HotCache(10);
    cache.writeStarting(KEY);
    cache.writeEnded(KEY, HotCache.WriteOutcome.UNKNOWN); // may land at the tail any time
    assertEquals(-1, cache.stampBeforeGet(KEY));
    cache.answered(KEY, 0, value(1), true);
    assertNull(cache.lookup(KEY), "an unsettled key is not cached");
    assertEquals(1, cache.unsettledKeys());

    cache.writeStarting(KEY);
    cache.writeEnded(KEY, HotCache.WriteOutcome.NOT_APPLIED); // settles nothing
    assertEquals(-1, cache.stampBeforeGet(KEY));

    cache.writeStarting(KEY);
    cache.writeEnded(KEY, HotCache.WriteOutcome.ACKNOWLEDGED); // ordered after the unknown one
    assertEquals(0, cache.unsettledKeys());
    cache.answered(KEY, cache.stampBeforeGet(KEY), value(3), true);
    assertArrayEquals(value(3).payload(), cache.lookup(KEY).payload());

    // How a front-end reads a head's answer: ERROR is a write applied at the head whose
    // forward broke (ChainMessages answers it so, never REFUSED once applied).
    assertEquals(HotCache.WriteOutcome.UNKNOWN, HotCache.WriteOutcome.of(MessageType.ERROR));
    assertEquals(HotCache.WriteOutcome.ACKNOWLEDGED, HotCache.WriteOutcome.of(MessageType.OK));
    assertEquals(HotCache.WriteOutcome.NOT_APPLIED,
        HotCache.WriteOutcome.of(MessageType.REFUSED));
  }

  @Test
  void randomInterleavings_cacheServesOnlyTheTailsCurrentValue_neverAnOlderOne() {
    for (int seed = 0; seed < 300; seed++) {
      runModel(new Random(seed), seed);
    }
  }

  private static void runModel(Random random, int seed) {
    HotCache cache = new HotCache(random.nextBoolean() ? 1 : 10);
    int tail = 0; // the tail's version
    int shown = 0; // the newest version any finished read or answered write showed
    List<Get> gets = new ArrayList<>();
    int writesOnTheirWay = 0;
    int unknownPending = 0; // writes that ended unknown and have not landed (or been lost)
    List<Integer> writeVersions = new ArrayList<>(); // applied at the tail, not yet answered
    for (long now = 0; now < 400; now++) {
      int dice = random.nextInt(100);
      if (dice < 30) { // a client's get
        HotCache.Entry hit = cache.lookup(KEY);
        if (hit != null) {
          int v = hit.payload()[0];
          assertEquals(tail, v, "seed " + seed + " at " + now + ": cache served version " + v
              + " while the tail had " + tail);
          assertTrue(v >= shown, "seed " + seed + " at " + now + ": cache served version " + v
              + " after version " + shown + " was shown");
          shown = v;
        } else {
          gets.add(new Get(now, cache.stampBeforeGet(KEY), shown));
        }
      } else if (dice < 50 && !gets.isEmpty()) { // the tail answers some get now
        Get g = gets.get(random.nextInt(gets.size()));
        if (g.answer == null) {
          g.answer = tail;
        }
      } else if (dice < 70 && !gets.isEmpty()) { // an answered get reaches the front-end
        Get g = gets.get(random.nextInt(gets.size()));
        if (g.answer != null) {
          gets.remove(g);
          assertTrue(g.answer >= g.floor, "model error: the tail went back");
          cache.answered(KEY, g.stamp, value(g.answer), true);
          shown = Math.max(shown, g.answer);
        }
      } else if (dice < 78 && writesOnTheirWay < 3) { // a write through the front-end starts
        cache.writeStarting(KEY);
        writesOnTheirWay++;
        // The head orders it after every earlier write: those land first, or are lost.
        tail += random.nextBoolean() ? unknownPending : 0;
        unknownPending = 0;
        if (random.nextInt(4) == 0) { // its forward will break: it lands later, or never
          unknownPending++;
          writeVersions.add(-1);
        } else {
          tail++;
          writeVersions.add(tail); // applied at the tail before its answer comes back
        }
      } else if (dice < 86 && writesOnTheirWay > 0) { // its answer passes the front-end
        writesOnTheirWay--;
        int version = writeVersions.remove(0);
        if (version < 0 || random.nextInt(8) == 0) { // an error: where it landed is unknown
          cache.writeEnded(KEY, HotCache.WriteOutcome.UNKNOWN);
        } else {
          cache.writeEnded(KEY, HotCache.WriteOutcome.ACKNOWLEDGED);
          shown = Math.max(shown, version);
        }
      } else if (dice < 90 && unknownPending > 0) { // a write of unknown outcome lands now
        tail++;
        unknownPending--;
      } else if (dice < 93) {
        cache.retainOnly(k -> random.nextBoolean());
      }
    }
  }
}
