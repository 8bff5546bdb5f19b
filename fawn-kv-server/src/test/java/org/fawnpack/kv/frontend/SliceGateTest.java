package org.fawnpack.kv.frontend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gate of a front-end that follows ZooKeeper, on a clock the test moves: it serves only
 * under a lease, never a cache hit once the lease ran out, forgets its cache before serving
 * again; and it holds back every bucket another front-end may have served since it last served
 * it until the back-ends are fenced, checked against the full history of maps (including maps
 * the gate never saw), which is what decides whether another front-end could have served it.
 */
class SliceGateTest {
  private static final String SELF = "f1";
  private static final long LEASE_NANOS = 2_000_000_000L;
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final HotCache cache = new HotCache(100);
  private final SliceGate gate = new SliceGate(SELF, cache, timer, Lease.renewable(now::get));
  private final List<Long> fenceAsked = new ArrayList<>();

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  private static SliceMap.Endpoint endpoint(String name) {
    return new SliceMap.Endpoint(name, "127.0.0.1", 1000 + name.hashCode() % 1000 + 1000);
  }

  private static Frame get(byte[] key) {
    return new Frame(MessageType.GET, 1, 0, new Frame.Payload().addBytes(key).toBytes());
  }

  /** A key the map gives to {@code owner}. */
  private static byte[] keyOf(SliceMap map, String owner) {
    for (int i = 0; ; i++) {
      byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
      if (map.ownerOf(key).name().equals(owner) && map.servable(map.bucketOf(key))) {
        return key;
      }
    }
  }

  private SliceGate.Decision admit(byte[] key) {
    SliceGate.Decision d = gate.admit(key, get(key), reply -> { });
    if (d.admission() != null) {
      d.admission().send(new Frame(MessageType.OK, 1, 0, null)); // answered: off its way
    }
    return d;
  }

  @Test
  void noLeaseYet_orLeaseRunOut_notReady_cacheNeitherServedNorFilled() {
    SliceMap map = SliceMap.first(7, List.of(endpoint(SELF)));
    gate.apply(map);
    gate.open();
    byte[] key = keyOf(map, SELF);
    assertEquals(SliceGate.Verdict.NOT_READY, admit(key).verdict(), "no lease yet");

    gate.renewLease(now.get(), LEASE_NANOS);
    assertEquals(SliceGate.Verdict.SERVE, admit(key).verdict());
    HotCache.Key k = HotCache.Key.of(key);
    gate.answered(k, cache.stampBeforeGet(k), new HotCache.Entry(MessageType.VALUE,
        new byte[] {1}));
    assertArrayEquals(new byte[] {1}, admit(key).hit().payload(), "cached under the lease");

    now.addAndGet(LEASE_NANOS); // frozen past the lease: nothing it holds may be served
    SliceGate.Decision late = admit(key);
    assertEquals(SliceGate.Verdict.NOT_READY, late.verdict(), late.reason());
    assertNull(late.hit());
    gate.answered(k, cache.stampBeforeGet(k), new HotCache.Entry(MessageType.VALUE,
        new byte[] {2}));

    gate.renewLease(now.get(), LEASE_NANOS); // heard from ZooKeeper again
    SliceGate.Decision again = admit(key);
    assertEquals(SliceGate.Verdict.SERVE, again.verdict());
    assertNull(again.hit(), "the cache was emptied: its key may have been written elsewhere");
  }

  @Test
  void renewal_sentBeforeTheLastOne_doesNotShortenTheLease() {
    SliceMap map = SliceMap.first(7, List.of(endpoint(SELF)));
    gate.apply(map);
    gate.open();
    byte[] key = keyOf(map, SELF);
    gate.renewLease(now.get(), LEASE_NANOS);
    gate.renewLease(now.get() - LEASE_NANOS / 2, LEASE_NANOS); // a slow answer, sent earlier
    now.addAndGet(LEASE_NANOS * 3 / 4);
    assertEquals(SliceGate.Verdict.SERVE, admit(key).verdict());
  }

  @Test
  void randomMapHistories_everyBucketOthersMayHaveServed_waitsForTheFence() {
    gate.fenceWith(fenceAsked::add);
    gate.renewLease(now.get(), Long.MAX_VALUE / 4);
    Random random = new Random(42);
    List<String> names = List.of("f0", "f1", "f2", "f3");
    SliceMap current = SliceMap.first(random.nextLong(), List.of(endpoint("f0"),
        endpoint(SELF)));
    List<SliceMap> history = new ArrayList<>(List.of(current));
    SliceMap seen = null; // the last map the gate was given
    int fencedCases = 0;
    for (int step = 0; step < 60; step++) {
      if (seen == null || random.nextInt(3) > 0) { // else the gate misses this map
        boolean[] needed = needsFence(history, seen, current);
        fenceAsked.clear();
        gate.apply(current);
        gate.open();
        boolean anyNeeded = false; // a bucket it serves now waits for the fence
        for (int b = 0; b < SliceMap.BUCKETS; b++) {
          boolean serves = current.ownerOf(b).name().equals(SELF) && current.servable(b);
          SliceGate.Verdict v = verdictOfBucket(current, b);
          if (!serves) {
            continue;
          }
          if (needed[b]) {
            fencedCases++;
            anyNeeded = true;
            assertEquals(SliceGate.Verdict.MOVING, v, "bucket " + b + " of " + current
                + " after " + seen + ": another front-end may have served it");
          } else if (seen != null && current.epoch() == seen.epoch() + 1) {
            assertEquals(SliceGate.Verdict.SERVE, v, "bucket " + b + " of " + current
                + " after " + seen + ": served all along, no fence needed");
          }
        }
        if (anyNeeded) {
          assertTrue(gate.awaitsFence(), "buckets wait for the fence at " + current.epoch());
        }
        if (!fenceAsked.isEmpty()) {
          assertEquals(List.of(current.epoch()), fenceAsked);
          gate.fenced(current.epoch());
        }
        assertFalse(gate.awaitsFence(), "fenced, or nothing to fence, at " + current.epoch());
        seen = current;
      }
      current = next(current, names, random);
      history.add(current);
    }
    assertTrue(fencedCases > 0, "the history never moved a bucket to " + SELF);
  }

  /** What the gate says of a key of bucket {@code b} now. */
  private SliceGate.Verdict verdictOfBucket(SliceMap map, int b) {
    if (probes == null) { // every map of a history has the first one's seed
      probes = new byte[SliceMap.BUCKETS][];
      for (int i = 0, found = 0; found < SliceMap.BUCKETS; i++) {
        byte[] key = ("probe-" + i).getBytes(StandardCharsets.UTF_8);
        if (probes[map.bucketOf(key)] == null) {
          probes[map.bucketOf(key)] = key;
          found++;
        }
      }
    }
    return admit(probes[b]).verdict();
  }

  private byte[][] probes;

  /**
   * The oracle: bucket b needs a fence before {@code next} unless {@link #SELF} served it in
   * every map of the history from {@code seen} to {@code next}, both included (then no other
   * front-end can have admitted a write to it meanwhile).
   */
  private static boolean[] needsFence(List<SliceMap> history, SliceMap seen, SliceMap next) {
    boolean[] needed = new boolean[SliceMap.BUCKETS];
    for (int b = 0; b < SliceMap.BUCKETS; b++) {
      if (seen == null) {
        needed[b] = true;
        continue;
      }
      for (SliceMap m : history) {
        if (m.epoch() >= seen.epoch() && m.epoch() <= next.epoch()
            && !(m.ownerOf(b).name().equals(SELF) && m.servable(b))) {
          needed[b] = true;
        }
      }
    }
    return needed;
  }

  /** The coordinator's next map: a handover to a random set of front-ends, or a settle. */
  private static SliceMap next(SliceMap map, List<String> names, Random random) {
    if (!map.settled()) {
      return map.settle();
    }
    List<SliceMap.Endpoint> owners = new ArrayList<>();
    for (String name : names) {
      if (name.equals(SELF) ? random.nextInt(4) > 0 : random.nextBoolean()) {
        owners.add(endpoint(name));
      }
    }
    if (owners.isEmpty()) {
      owners.add(endpoint(SELF));
    }
    return map.handOverTo(owners);
  }
}
