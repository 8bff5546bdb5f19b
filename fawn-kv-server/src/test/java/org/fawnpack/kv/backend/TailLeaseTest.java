package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.junit.jupiter.api.Test;

/**
 * The two rules of {@link TailLease} on rings built in code: which arcs a member holds when it
 * takes an epoch (checked against the chains of both rings, read independently here), and when
 * its lease lets it answer direct gets.
 */
class TailLeaseTest {
  private static final RingHash HASH =
      new RingHash("tail lease test ring key".getBytes(StandardCharsets.UTF_8));
  private static final List<Member> MEMBERS = List.of(
      new Member("b0", "127.0.0.1", 1000, null), new Member("b1", "127.0.0.2", 1000, null),
      new Member("b2", "127.0.0.3", 1000, null), new Member("b3", "127.0.0.4", 1000, null),
      new Member("b4", "127.0.0.5", 1000, null));

  @Test
  void aTailGoesDown_theMembersThatBecomeTailsHoldExactlyItsArcs() {
    Ring before = Ring.at(7, HASH, 2, 3, MEMBERS);
    Ring after = before.withMembersDown(Set.of("b2"));
    for (Member m : MEMBERS) {
      Set<Long> expected = new HashSet<>();
      for (Chain now : after.chains()) {
        Chain was = before.chainFor(now.range().endInclusive());
        if (!now.isEmpty() && now.tail().equals(m) && was.tail().id().equals("b2")) {
          expected.add(now.range().endInclusive());
        }
      }
      assertEquals(expected, held(before, after, m), m.id());
    }
  }

  @Test
  void aCopierJoinsBehindTheTail_theOldTailStaysInTheChain_nothingHeld() {
    Ring down = Ring.at(7, HASH, 2, 3, MEMBERS).withMembersDown(Set.of("b2"));
    Ring promoted = down.withPendingDone(down.pending().keySet());
    boolean tailChanged = false;
    for (Chain now : promoted.chains()) {
      Chain was = down.chainFor(now.range().endInclusive());
      tailChanged |= !now.tail().equals(was.tail());
      assertTrue(now.members().contains(was.tail()), "the old tail stays in " + now);
    }
    assertTrue(tailChanged, "some copier became a tail");
    for (Member m : MEMBERS) {
      assertEquals(Set.of(), held(down, promoted, m), m.id());
    }
  }

  @Test
  void anEpochSkipped_orTheFirstRing_everyArcItIsTailOfIsHeld() {
    Ring first = Ring.at(7, HASH, 2, 3, MEMBERS);
    Ring skipped = Ring.at(9, HASH, 2, 3, MEMBERS);
    for (Member m : MEMBERS) {
      Set<Long> tailOf = new HashSet<>();
      for (Chain c : skipped.chains()) {
        if (c.tail().equals(m)) {
          tailOf.add(c.range().endInclusive());
        }
      }
      assertEquals(tailOf, held(first, skipped, m), m.id());
      assertEquals(tailOf, held(null, skipped, m), m.id());
    }
  }

  @Test
  void leaseOff_directGetsRefusedByName_nothingHeld() {
    TailLease lease = new TailLease("b0");
    assertTrue(lease.directGetRefusal(3).contains("fawn.kv.tail-read-lease-ms"));
    lease.ringChanging(null, Ring.at(1, HASH, 2, 3, MEMBERS), MEMBERS.get(0));
    for (Chain c : Ring.at(1, HASH, 2, 3, MEMBERS).chains()) {
      assertEquals(0, lease.heldNanos(c.range().endInclusive()));
    }
  }

  @Test
  void renewedOnlyWhileNoNewerEpochIsPublished_andRunsOutAfterFourFifths() throws Exception {
    TailLease lease = new TailLease("b0");
    lease.enable(200);
    assertNotNull(lease.directGetRefusal(5), "no lease before the first answer");
    AtomicLong published = new AtomicLong(6);
    lease.renew(published::get, 5); // an epoch it has not taken is out: not renewed
    assertNotNull(lease.directGetRefusal(5));
    published.set(5);
    long sent = System.nanoTime();
    lease.renew(published::get, 5);
    if (System.nanoTime() - sent < 100_000_000L) { // checked well within the 160 ms it holds
      assertNull(lease.directGetRefusal(5));
    }
    Thread.sleep(200); // past 0.8 of the lease's length, whatever the clock did meanwhile
    assertNotNull(lease.directGetRefusal(5), "run out");
    lease.renew(() -> {
      throw new java.io.IOException("ZooKeeper unreachable");
    }, 5);
    assertNotNull(lease.directGetRefusal(5), "a failed question renews nothing");
  }

  /** The arcs {@code me} holds after taking {@code after} with {@code before} as its ring. */
  private static Set<Long> held(Ring before, Ring after, Member me) {
    TailLease lease = new TailLease(me.id());
    lease.enable(60_000);
    lease.ringChanging(before, after, me);
    Set<Long> held = new HashSet<>();
    for (Chain c : after.chains()) {
      if (lease.heldNanos(c.range().endInclusive()) > 0) {
        held.add(c.range().endInclusive());
      }
    }
    return held;
  }
}
