package org.fawnpack.kv.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Ring placement as properties over random clusters (seeded; the seed is in every message),
 * each checked against a naive model: sort every virtual node by its clockwise distance from the
 * position and take members on new hosts until the chain is full.
 */
class RingTest {
  private static final RingHash HASH = new RingHash("test ring key, 16+ bytes".getBytes(
      StandardCharsets.UTF_8));
  private static final int CLUSTERS = 200;
  private static final int POSITIONS = 200;

  private record Vnode(long position, Member member) {}

  /** The model with none down. */
  private static List<Member> naiveChain(Ring ring, long position) {
    return naiveLiveChain(ring, position, Set.of());
  }

  private static Ring randomRing(Random random, int members) {
    int hosts = 1 + random.nextInt(6);
    Ring ring = Ring.empty(HASH, 1 + random.nextInt(8), 1 + random.nextInt(4));
    for (int i = 0; i < members; i++) {
      ring = ring.withMember(new Member("b" + i, "host" + random.nextInt(hosts), 7000 + i));
    }
    return ring;
  }

  /** Some of the ring's members, at least one and not all. */
  private static Set<String> randomDown(Random random, Ring ring) {
    List<String> ids = ring.members().stream().map(Member::id).sorted().toList();
    Set<String> down = new HashSet<>();
    for (int d = 1 + random.nextInt(ids.size() - 1); d > 0; d--) {
      down.add(ids.get(random.nextInt(ids.size())));
    }
    return down;
  }

  private static long distinctHosts(Ring ring) {
    return ring.members().stream().map(Member::host).distinct().count();
  }

  @Test
  void chainFor_randomClusters_matchesTheModelWithDistinctHosts() {
    Random random = new Random(41);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring ring = randomRing(random, 1 + random.nextInt(10));
      for (int p = 0; p < POSITIONS; p++) {
        long position = random.nextLong();
        Chain chain = ring.chainFor(position);
        String where = "cluster " + c + ", " + ring + ", position " + Long.toHexString(position);
        assertEquals(naiveChain(ring, position), chain.members(), where);
        assertEquals(Math.min(ring.replicas(), distinctHosts(ring)), chain.members().size(), where);
        assertEquals(chain.members().size(),
            chain.members().stream().map(Member::host).distinct().count(), where);
        assertTrue(chain.range().contains(position), where + " not in " + chain.range());
        assertEquals(chain.isShort(), distinctHosts(ring) < ring.replicas(), where);
      }
    }
  }

  @Test
  void withMembersDown_randomClusters_sameArcsAndChainsWithoutTheDownInOrder() {
    Random random = new Random(47);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring before = randomRing(random, 2 + random.nextInt(9));
      Set<String> down = randomDown(random, before);
      Ring after = before.withMembersDown(down);
      assertEquals(before.epoch() + 1, after.epoch());
      List<Chain> was = before.chains();
      List<Chain> now = after.chains();
      assertEquals(was.size(), now.size(), "cluster " + c + ": the arcs moved");
      for (int i = 0; i < was.size(); i++) {
        String where = "cluster " + c + ", down " + down + ", arc " + i;
        assertEquals(was.get(i).range(), now.get(i).range(), where);
        List<Member> model = new ArrayList<>(was.get(i).members());
        model.removeIf(m -> down.contains(m.id()));
        assertEquals(model, now.get(i).members(), where);
        assertEquals(model.size() < before.replicas(), now.get(i).isShort(), where);
      }
    }
  }

  /**
   * The model: every virtual node sorted by clockwise distance from the position; the first r
   * members not down, each on a host not seen before in that order (a down one's host counts
   * as seen).
   */
  private static List<Member> naiveLiveChain(Ring ring, long position, Set<String> down) {
    List<Vnode> all = new ArrayList<>();
    for (Member m : ring.members()) {
      for (int i = 0; i < ring.vnodesPerMember(); i++) {
        all.add(new Vnode(HASH.virtualNodePosition(m.id(), i), m));
      }
    }
    all.sort(Comparator.comparing((Vnode v) -> v.position() - position, Long::compareUnsigned));
    Set<String> hosts = new HashSet<>();
    List<Member> chain = new ArrayList<>();
    for (Vnode v : all) {
      if (hosts.add(v.member().host()) && !down.contains(v.member().id())
          && chain.size() < ring.replicas()) {
        chain.add(v.member());
      }
    }
    return chain;
  }

  @Test
  void withMembersDown_randomClusters_replacementsPendingAfterTheSurvivorsThenServe() {
    Random random = new Random(53);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring before = randomRing(random, 2 + random.nextInt(9));
      Set<String> down = randomDown(random, before);
      Ring shrunk = before.withMembersDown(down);
      Ring extended = shrunk.withPendingDone(shrunk.pending().keySet());
      for (int i = 0; i < before.chains().size(); i++) {
        Chain was = before.chains().get(i);
        Chain now = shrunk.chains().get(i);
        String where = "cluster " + c + ", down " + down + ", arc " + i;
        List<Member> model = naiveLiveChain(before, was.range().endInclusive(), down);
        List<Member> all = new ArrayList<>(now.members());
        all.addAll(now.pending());
        assertEquals(model, all, where + ": serving then copying is the live walk");
        for (Member m : now.pending()) {
          assertTrue(!was.members().contains(m), where + ": " + m + " copies an arc it served");
          assertTrue(shrunk.pendingArcsOf(m.id()).contains(was.range().endInclusive()), where);
        }
        assertEquals(model, extended.chains().get(i).members(), where + " once copied");
        assertTrue(extended.chains().get(i).pending().isEmpty(), where);
      }
    }
  }

  /**
   * A planned leave, against the model: while leaving, every chain keeps exactly its serving
   * members (so none is short) and the members the model's walk without the leaver adds are
   * pending after them; once they copied, serving is the old chain then the newcomers; once
   * left, each chain is the model's walk with the leaver down. Nothing else moves.
   */
  @Test
  void withLeavingThenLeft_randomClusters_chainsStayFull_replacementsCopyThenLeaverLeaves() {
    Random random = new Random(59);
    int leaves = 0;
    for (int c = 0; c < CLUSTERS; c++) {
      Ring before = randomRing(random, 2 + random.nextInt(9));
      List<String> ids = before.members().stream().map(Member::id).sorted().toList();
      String leaver = ids.get(random.nextInt(ids.size()));
      Set<String> gone = Set.of(leaver);
      boolean enoughHosts = before.members().stream().filter(m -> !m.id().equals(leaver))
          .map(Member::host).distinct().count() >= before.replicas()
          && before.member(leaver) != null;
      boolean refusedByModel = before.chains().stream().anyMatch(ch -> naiveLiveChain(before,
          ch.range().endInclusive(), gone).size() < before.replicas());
      if (refusedByModel) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> before.withLeaving(gone), "cluster " + c);
        assertTrue(e.getMessage().contains("cannot leave"), e.getMessage());
        continue;
      }
      assertTrue(enoughHosts, "cluster " + c);
      leaves++;
      Ring leaving = before.withLeaving(gone);
      Ring copied = leaving.pending().isEmpty() ? leaving
          : leaving.withPendingDone(leaving.pending().keySet());
      Ring left = copied.withLeft();
      assertEquals(gone, leaving.leaving());
      assertTrue(left.isDown(leaver) && left.leaving().isEmpty(), left.toString());
      for (int i = 0; i < before.chains().size(); i++) {
        Chain was = before.chains().get(i);
        String where = "cluster " + c + ", leaver " + leaver + ", arc " + i;
        List<Member> model = naiveLiveChain(before, was.range().endInclusive(), gone);
        List<Member> newcomers = new ArrayList<>(model);
        newcomers.removeAll(was.members());
        Chain during = leaving.chains().get(i);
        assertEquals(was.range(), during.range(), where);
        assertEquals(was.members(), during.members(), where + ": the chain keeps serving whole");
        assertFalse(during.isShort(), where);
        assertEquals(newcomers, during.pending(), where + ": the model's newcomers copy");
        List<Member> both = new ArrayList<>(was.members());
        both.addAll(newcomers);
        assertEquals(both, copied.chains().get(i).members(), where + " once copied");
        assertEquals(model, left.chains().get(i).members(), where + " once left");
        if (was.members().stream().noneMatch(m -> m.id().equals(leaver))) {
          assertTrue(newcomers.isEmpty(), where + ": an arc without the leaver gets no copier");
        }
      }
    }
    assertTrue(leaves > CLUSTERS / 4, "too few clusters could leave: " + leaves);
  }

  @Test
  void withLeaving_whileCopyingOrWithUnknownMember_refusedByName() {
    Ring ring = Ring.empty(HASH, 2, 3);
    for (int i = 0; i < 6; i++) {
      ring = ring.withMember(new Member("b" + i, "host" + i, 7000 + i));
    }
    Ring fixed = ring;
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> fixed.withLeaving(Set.of("zz"))).getMessage().contains("zz"));
    Ring copying = fixed.withMembersDown(Set.of("b0"));
    assertFalse(copying.pending().isEmpty(), copying.toString());
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> copying.withLeaving(Set.of("b1"))).getMessage().contains("copying"));
    assertTrue(assertThrows(IllegalArgumentException.class, fixed::withLeft).getMessage()
        .contains("no leave"));
  }

  @Test
  void withAddresses_newPorts_sameArcsAndChainsById_downAndPendingKept_hostMoveRefused() {
    Random random = new Random(47);
    for (int trial = 0; trial < 200; trial++) {
      Ring ring = randomRing(random, 2 + random.nextInt(8));
      if (random.nextBoolean()) {
        ring = ring.withMembersDown(randomDown(random, ring));
      }
      Ring before = ring;
      List<Member> moved = before.members().stream().filter(m -> !before.isDown(m.id()))
          .filter(m -> random.nextBoolean())
          .map(m -> new Member(m.id(), m.host(), m.port() + 1000)).toList();
      Ring after = before.withAddresses(moved);
      assertEquals(before.epoch() + 1, after.epoch());
      assertEquals(before.down(), after.down());
      assertEquals(before.pending(), after.pending());
      for (int i = 0; i < before.chains().size(); i++) {
        Chain was = before.chains().get(i);
        Chain is = after.chains().get(i);
        assertEquals(was.range(), is.range());
        assertEquals(was.members().stream().map(Member::id).toList(),
            is.members().stream().map(Member::id).toList(), "trial " + trial);
        assertEquals(was.pending().stream().map(Member::id).toList(),
            is.pending().stream().map(Member::id).toList(), "trial " + trial);
      }
      for (Member m : moved) {
        assertEquals(m, after.member(m.id()), "the new port is the ring's");
      }
    }
    Ring two = Ring.empty(HASH, 2, 2).withMember(new Member("a", "h1", 7000))
        .withMember(new Member("b", "h2", 7000));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> two.withAddresses(List.of(new Member("a", "h3", 7001)))).getMessage()
        .contains("moved from host h1 to h3"));
    Ring aDown = two.withMembersDown(List.of("a"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> aDown.withAddresses(List.of(new Member("a", "h1", 7001)))).getMessage()
        .contains("not a live member"));
  }

  @Test
  void withMembersBack_randomClusters_backInTheirOldPlaceAfterCopying_displacedLeave() {
    Random random = new Random(59);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring before = randomRing(random, 2 + random.nextInt(9));
      Set<String> down = randomDown(random, before);
      Ring shrunk = before.withMembersDown(down);
      if (random.nextBoolean()) {
        shrunk = shrunk.withPendingDone(shrunk.pending().keySet()); // replacements copied
      }
      Ring away = shrunk;
      List<Member> back = away.members().stream().filter(m -> down.contains(m.id()))
          .filter(m -> random.nextBoolean()).map(m -> new Member(m.id(), m.host(), m.port() + 1))
          .toList();
      if (back.isEmpty()) {
        continue;
      }
      Set<String> stillDown = new HashSet<>(down);
      back.forEach(m -> stillDown.remove(m.id()));
      Ring after = away.withMembersBack(back);
      Ring copied = after.withPendingDone(after.pending().keySet());
      assertEquals(stillDown, after.down());
      for (int i = 0; i < before.chains().size(); i++) {
        long end = before.chains().get(i).range().endInclusive();
        String where = "cluster " + c + ", down " + down + ", back " + back + ", arc " + i;
        List<String> model = ids(naiveLiveChain(before, end, stillDown));
        Chain now = after.chains().get(i);
        Set<String> walk = new HashSet<>(ids(now.members()));
        walk.addAll(ids(now.pending()));
        assertEquals(new HashSet<>(model), walk, where + ": serving and copying are the walk");
        assertTrue(ids(away.chains().get(i).members()).containsAll(ids(now.members())),
            where + ": only members that held the arc serve it before copying");
        for (Member m : back) {
          assertEquals(model.contains(m.id()), after.pendingArcsOf(m.id()).contains(end), where
              + ": " + m.id() + " copies exactly the arcs of its old place");
        }
        assertEquals(model, ids(copied.chains().get(i).members()), where + " once copied");
      }
      for (Member m : back) {
        assertFalse(after.servesAnyArc(m.id()), m.id() + " serves nothing before its copies");
        assertEquals(m, after.member(m.id()), "the ring names the address it came back at");
      }
    }
    Ring two = Ring.empty(HASH, 2, 2).withMember(new Member("a", "h1", 7000))
        .withMember(new Member("b", "h2", 7000));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> two.withMembersBack(List.of(new Member("a", "h1", 7000)))).getMessage()
        .contains("not down"));
    Ring aDown = two.withMembersDown(List.of("a"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> aDown.withMembersBack(List.of(new Member("a", "h3", 7000)))).getMessage()
        .contains("comes back on host h3, not h1"));
  }

  @Test
  void withJoiningThenJoined_randomClusters_frozenArcsAreExactlyTheChangedOnes_joinersCopy() {
    Random random = new Random(61);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring before = randomRing(random, 1 + random.nextInt(9));
      if (before.members().size() > 1 && random.nextBoolean()) {
        before = before.withMembersDown(randomDown(random, before));
        before = before.withPendingDone(before.pending().keySet());
      }
      Set<String> down = before.down();
      List<Member> joiners = new ArrayList<>();
      for (int j = 1 + random.nextInt(2); j > 0; j--) {
        joiners.add(new Member("new" + j, "host" + random.nextInt(8), 9000 + j));
      }
      Ring model = before;
      for (Member m : joiners) {
        model = model.withMember(m); // placement only, checked against the naive model above
      }
      Ring joining = before.withJoining(joiners);
      Ring joined = joining.withJoined();
      Ring served = joined.pending().isEmpty() ? joined
          : joined.withPendingDone(joined.pending().keySet());
      String where = "cluster " + c + ", joiners " + joiners + ", down " + down;
      assertEquals(ids(before.chains().stream().flatMap(ch -> ch.members().stream()).toList()),
          ids(joining.chains().stream().flatMap(ch -> ch.members().stream()).toList()),
          where + ": joining changes no chain's members");
      for (Chain ch : joining.chains()) {
        long end = ch.range().endInclusive();
        boolean changed = model.chains().stream().filter(m -> ch.range().contains(
            m.range().endInclusive())).anyMatch(m -> !m.range().equals(ch.range())
            || m.members().stream().anyMatch(joiners::contains));
        assertEquals(changed, joining.frozen().contains(end), where + ", arc " + ch.range());
        assertEquals(!changed && !ch.isShort(), ch.takesWrites(), where + ": frozen ones");
      }
      assertTrue(joined.frozen().isEmpty(), where);
      for (int i = 0; i < model.chains().size(); i++) {
        Chain want = model.chains().get(i);
        Chain now = joined.chains().get(i);
        String arc = where + ", arc " + want.range();
        assertEquals(want.range(), now.range(), arc);
        Set<String> walk = new HashSet<>(ids(now.members()));
        walk.addAll(ids(now.pending()));
        assertEquals(new HashSet<>(ids(want.members())), walk, arc + ": the model's walk");
        List<String> heldBefore = ids(before.chainFor(want.range().endInclusive()).members());
        for (Member m : now.members()) {
          assertTrue(heldBefore.contains(m.id()), arc + ": " + m.id() + " serves without a copy");
        }
        for (Member m : now.pending()) {
          assertFalse(heldBefore.contains(m.id()), arc + ": " + m.id() + " copies what it has");
        }
        assertEquals(ids(want.members()), ids(served.chains().get(i).members()), arc);
      }
    }
  }

  private static List<String> ids(List<Member> members) {
    return members.stream().map(Member::id).toList();
  }

  @Test
  void withPendingDone_memberPendingNowhere_refusedByName() {
    Ring ring = Ring.empty(HASH, 2, 2).withMember(new Member("a", "h1", 7000))
        .withMember(new Member("b", "h2", 7000));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ring.withPendingDone(List.of("a"))).getMessage().contains("pending on no arc"));
  }

  @Test
  void withMembersDown_noneNewlyDownOrUnknown_refusedByName() {
    Ring ring = Ring.empty(HASH, 2, 2).withMember(new Member("a", "h1", 7000))
        .withMember(new Member("b", "h2", 7000)).withMembersDown(List.of("a"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ring.withMembersDown(List.of("a"))).getMessage().contains("down already"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ring.withMembersDown(List.of("zz"))).getMessage().contains("zz"));
    Ring allDown = ring.withMembersDown(List.of("b"));
    assertTrue(allDown.chainFor(0).isEmpty());
    assertTrue(assertThrows(IllegalStateException.class, () -> allDown.chainFor(0).head())
        .getMessage().contains("every member"));
  }

  @Test
  void chains_arcsOfEveryVirtualNode_tileTheRingInOrder() {
    Random random = new Random(43);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring ring = randomRing(random, 1 + random.nextInt(10));
      List<Chain> chains = ring.chains();
      assertEquals(ring.members().size() * ring.vnodesPerMember(), chains.size());
      for (int i = 0; i < chains.size(); i++) {
        Chain previous = chains.get((i + chains.size() - 1) % chains.size());
        assertEquals(previous.range().endInclusive(), chains.get(i).range().startExclusive(),
            "cluster " + c + ": arc " + i + " does not start where arc " + (i - 1) + " ends");
        assertEquals(chains.get(i), ring.chainFor(chains.get(i).range().endInclusive()));
      }
    }
  }

  @Test
  void withMember_join_movesOnlyWhatTheNewBackendTakes() {
    Random random = new Random(47);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring before = randomRing(random, 1 + random.nextInt(9));
      Member joiner = new Member("joiner", "host" + random.nextInt(8), 9000);
      Ring after = before.withMember(joiner);
      assertEquals(before.epoch() + 1, after.epoch());
      for (int p = 0; p < POSITIONS; p++) {
        long position = random.nextLong();
        List<Member> old = before.chainFor(position).members();
        List<Member> now = after.chainFor(position).members();
        String where = "cluster " + c + ", position " + Long.toHexString(position) + ": " + old
            + " -> " + now;
        Set<Member> allowed = new LinkedHashSet<>(old);
        allowed.add(joiner);
        assertTrue(allowed.containsAll(now), where);
        if (!now.contains(joiner)) {
          assertEquals(old, now, where);
        }
      }
    }
  }

  @Test
  void withoutMember_leave_keepsEveryChainThatDidNotHoldIt() {
    Random random = new Random(53);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring before = randomRing(random, 2 + random.nextInt(9));
      List<Member> members = new ArrayList<>(before.members());
      members.sort(Comparator.comparing(Member::id));
      Member leaver = members.get(random.nextInt(members.size()));
      Ring after = before.withoutMember(leaver.id());
      for (int p = 0; p < POSITIONS; p++) {
        long position = random.nextLong();
        List<Member> old = before.chainFor(position).members();
        List<Member> now = after.chainFor(position).members();
        String where = "cluster " + c + ", " + leaver + " left, position "
            + Long.toHexString(position) + ": " + old + " -> " + now;
        if (!old.contains(leaver)) {
          assertEquals(old, now, where);
        } else {
          List<Member> survivors = old.stream().filter(m -> !m.equals(leaver)).toList();
          assertTrue(now.containsAll(survivors), where);
        }
      }
    }
  }

  @Test
  void chainForKey_userKey_usesTheKeyedHashsPosition() {
    Ring ring = Ring.empty(HASH, 4, 3);
    for (int i = 0; i < 5; i++) {
      ring = ring.withMember(new Member("b" + i, "h" + i, 7000 + i));
    }
    byte[] key = "user:42".getBytes(StandardCharsets.UTF_8);
    assertEquals(ring.chainFor(HASH.position(key)), ring.chainForKey(key));
  }

  @Test
  void errors_badInput_namedClearly() {
    Ring ring = Ring.empty(HASH, 2, 3).withMember(new Member("a", "h1", 7000));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ring.withMember(new Member("a", "h2", 7001))).getMessage().contains("already"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ring.withoutMember("zz")).getMessage().contains("zz"));
    assertTrue(assertThrows(IllegalStateException.class,
        () -> Ring.empty(HASH, 2, 3).chainFor(5)).getMessage().contains("no back-ends"));
    assertThrows(IllegalArgumentException.class, () -> new Member("a#1", "h", 7000));
    assertThrows(IllegalArgumentException.class, () -> new Member("a", " ", 7000));
    assertThrows(IllegalArgumentException.class, () -> new Member("a", "h", 0));
    assertThrows(IllegalArgumentException.class, () -> Ring.empty(HASH, 0, 3));
    assertThrows(IllegalArgumentException.class, () -> Ring.empty(HASH, 2, 0));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new RingHash(new byte[15])).getMessage().contains("16"));
    Set<String> ids = ring.members().stream().map(Member::id).collect(Collectors.toSet());
    assertEquals(Set.of("a"), ids);
  }
}
