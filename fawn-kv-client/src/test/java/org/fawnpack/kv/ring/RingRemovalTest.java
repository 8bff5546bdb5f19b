package org.fawnpack.kv.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Removing down members for good ({@link Ring#withRemoving}, {@link Ring#withRemoved}) over
 * random clusters in boxes (seeded; the seed is in every message), against a naive model: the
 * arcs are those of the remaining members' virtual nodes, each chain is the naive walk
 * ({@link FailureDomainTest#naiveChain}) without the removed, a member serves a merged arc at
 * once only when it served every arc merged into it (else it copies), the frozen arcs are
 * exactly those that merge, and a removal that would leave a merged arc with nobody holding
 * all of it is refused by name. Refusals of live members and unsettled rings are named.
 */
class RingRemovalTest {
  private static final RingHash HASH = new RingHash("removal ring key, 16+ bytes".getBytes(
      StandardCharsets.UTF_8));
  private static final int CLUSTERS = 300;

  private static Ring randomRing(Random random, int members) {
    int hosts = 2 + random.nextInt(8);
    int boxes = 1 + random.nextInt(4);
    Ring ring = Ring.empty(HASH, 1 + random.nextInt(5), 1 + random.nextInt(3));
    for (int i = 0; i < members; i++) {
      int host = random.nextInt(hosts);
      ring = ring.withMember(new Member("b" + i, "host" + host, 7000 + i, "box" + host % boxes));
    }
    return ring;
  }

  /** Sorted unsigned: the arc ends of {@code members}' virtual nodes. */
  private static TreeSet<Long> naiveEnds(Ring ring, Set<String> without) {
    TreeSet<Long> ends = new TreeSet<>(Long::compareUnsigned);
    for (Member m : ring.members()) {
      if (!without.contains(m.id())) {
        for (int i = 0; i < ring.vnodesPerMember(); i++) {
          ends.add(HASH.virtualNodePosition(m.id(), i));
        }
      }
    }
    return ends;
  }

  /** The ids serving every arc of {@code before} whose end is in (start, end]. */
  private static Set<String> heldAll(Ring before, long start, long end, boolean whole) {
    Set<String> held = null;
    for (Chain c : before.chains()) {
      long e = c.range().endInclusive();
      boolean inside = whole || (Long.compareUnsigned(start, end) < 0
          ? Long.compareUnsigned(e, start) > 0 && Long.compareUnsigned(e, end) <= 0
          : Long.compareUnsigned(e, start) > 0 || Long.compareUnsigned(e, end) <= 0);
      if (inside) {
        Set<String> ids = c.members().stream().map(Member::id).collect(Collectors.toSet());
        if (held == null) {
          held = ids;
        } else {
          held.retainAll(ids);
        }
      }
    }
    return held;
  }

  @Test
  void removal_randomClustersInBoxes_arcsMergeAsTheModel_holdersServe_othersCopy() {
    Random random = new Random(73);
    int removals = 0;
    // The model has never refused one of these (20,000 random clusters tried): a merged arc's
    // new walk starts where its pieces' walks did. The check stays, since a merged arc with no
    // member holding all of it would have nothing to copy from; it runs here on every removal.
    for (int c = 0; c < CLUSTERS; c++) {
      Ring settled = randomRing(random, 2 + random.nextInt(9));
      List<String> ids = settled.members().stream().map(Member::id).sorted().toList();
      Set<String> down = new HashSet<>();
      for (int d = 1 + random.nextInt(Math.max(1, ids.size() / 2)); d > 0; d--) {
        down.add(ids.get(random.nextInt(ids.size())));
      }
      Ring before = settled.withMembersDown(down);
      if (!before.orphans().lastChains().isEmpty()) {
        continue; // a chain wholly down: removal waits for its recovery (refused, tested below)
      }
      before = before.pending().isEmpty() ? before
          : before.withPendingDone(before.pending().keySet());
      List<String> downIds = new ArrayList<>(new TreeSet<>(down));
      Set<String> removed = new HashSet<>(downIds.subList(0, 1 + random.nextInt(
          downIds.size())));
      String where = "seed 73, cluster " + c + ", down " + down + ", removed " + removed;

      TreeSet<Long> ends = naiveEnds(before, removed);
      Set<String> stillDown = new HashSet<>(down);
      stillDown.removeAll(removed);
      Ring modelRing = before;
      for (String id : removed) {
        modelRing = modelRing.withoutMember(id); // placement only: the naive walk reads it
      }
      boolean modelRefuses = false;
      for (long end : ends) {
        Long start = ends.lower(end) != null ? ends.lower(end) : ends.last();
        Set<String> held = heldAll(before, start, end, ends.size() == 1);
        Set<String> walk = FailureDomainTest.naiveChain(modelRing, end, stillDown).stream()
            .map(Member::id).collect(Collectors.toSet());
        held.retainAll(walk);
        modelRefuses |= held.isEmpty();
      }
      if (modelRefuses) {
        Ring r = before;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> r.withRemoving(removed), where);
        assertTrue(e.getMessage().contains("cannot be removed"), e.getMessage());
        continue;
      }
      removals++;
      Ring removing = before.withRemoving(removed);
      TreeSet<Long> gone = naiveEnds(before, Set.of());
      gone.removeAll(ends);
      Set<Long> frozen = new HashSet<>(gone);
      for (long end : gone) {
        frozen.add(ends.ceiling(end) != null ? ends.ceiling(end) : ends.first());
      }
      assertEquals(frozen, removing.frozen(), where + ": the frozen arcs are those that merge");
      assertEquals(before.chains().size(), removing.chains().size(), where);
      for (Chain ch : removing.chains()) {
        assertEquals(!frozen.contains(ch.range().endInclusive()) && !ch.isShort(),
            ch.takesWrites(), where + ", arc " + ch.range());
      }

      Ring removed0 = removing.withRemoved();
      assertTrue(removed.stream().allMatch(id -> removed0.member(id) == null), where);
      assertEquals(stillDown, removed0.down(), where);
      assertTrue(removed0.removing().isEmpty() && removed0.frozen().isEmpty(), where);
      List<Long> arcEnds = removed0.chains().stream().map(ch -> ch.range().endInclusive())
          .toList();
      assertEquals(new ArrayList<>(ends), arcEnds, where + ": the remaining virtual nodes");
      for (Chain now : removed0.chains()) {
        long end = now.range().endInclusive();
        String arc = where + ", arc " + now.range();
        List<Member> model = FailureDomainTest.naiveChain(modelRing, end, stillDown);
        Set<String> walk = new HashSet<>();
        now.members().forEach(m -> walk.add(m.id()));
        now.pending().forEach(m -> walk.add(m.id()));
        assertEquals(model.stream().map(Member::id).collect(Collectors.toSet()), walk, arc);
        Set<String> held = heldAll(before, now.range().startExclusive(), end, ends.size() == 1);
        for (Member m : now.members()) {
          assertTrue(held.contains(m.id()), arc + ": " + m.id() + " serves without all of it");
        }
        for (Member m : now.pending()) {
          assertFalse(held.contains(m.id()), arc + ": " + m.id() + " copies what it holds");
        }
      }
      Ring served = removed0.pending().isEmpty() ? removed0
          : removed0.withPendingDone(removed0.pending().keySet());
      for (Chain now : served.chains()) {
        assertEquals(FailureDomainTest.naiveChain(modelRing, now.range().endInclusive(),
            stillDown), now.members(), where + ", arc " + now.range() + " once copied");
      }
    }
    assertTrue(removals > CLUSTERS / 3, "too few clusters could remove: " + removals);
  }

  @Test
  void withRemoving_liveMemberUnsettledRingOrUnknown_refusedByName() {
    Ring ring = Ring.empty(HASH, 2, 2);
    for (int i = 0; i < 4; i++) {
      ring = ring.withMember(new Member("b" + i, "h" + i, 7000 + i));
    }
    Ring live = ring;
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> live.withRemoving(Set.of("b1"))).getMessage().contains("not a down member"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> live.withRemoving(Set.of("zz"))).getMessage().contains("zz"));
    Ring copying = ring.withMembersDown(Set.of("b1"));
    if (!copying.pending().isEmpty()) {
      assertTrue(assertThrows(IllegalArgumentException.class,
          () -> copying.withRemoving(Set.of("b1"))).getMessage().contains("copying"));
    }
    Ring settled = copying.pending().isEmpty() ? copying
        : copying.withPendingDone(copying.pending().keySet());
    Ring removing = settled.withRemoving(Set.of("b1"));
    assertEquals(Set.of("b1"), removing.removing());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> removing.withJoining(List.of(new Member("n", "hn", 9000)))).getMessage()
        .contains("being removed"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> settled.withRemoved()).getMessage().contains("no removal"));
    Ring all = settled.withMembersDown(Set.of("b0", "b2", "b3"));
    assertThrows(IllegalArgumentException.class,
        () -> all.withRemoving(Set.of("b0", "b1", "b2", "b3")));
  }
}
