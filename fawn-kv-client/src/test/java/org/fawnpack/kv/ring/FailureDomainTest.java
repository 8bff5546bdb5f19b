package org.fawnpack.kv.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Chains placed across failure domains (boxes of boards on one supply), as properties over
 * random clusters (seeded; the seed is in every message), each checked against a naive model
 * and against what a box's power cut must leave: a member of every chain.
 */
class FailureDomainTest {
  private static final RingHash HASH = new RingHash("domain ring key, 16+ bytes".getBytes(
      StandardCharsets.UTF_8));
  private static final int CLUSTERS = 200;
  private static final int POSITIONS = 100;

  private record Vnode(long position, Member member) {}

  /** Hosts spread over boxes, each host in one box; members spread over the hosts. */
  private static Ring randomRing(Random random, int members, int boxes) {
    int hosts = 1 + random.nextInt(8);
    int[] boxOfHost = new int[hosts];
    for (int h = 0; h < hosts; h++) {
      boxOfHost[h] = random.nextInt(boxes);
    }
    Ring ring = Ring.empty(HASH, 1 + random.nextInt(6), 1 + random.nextInt(4));
    for (int i = 0; i < members; i++) {
      int host = random.nextInt(hosts);
      ring = ring.withMember(new Member("b" + i, "host" + host, 7000 + i,
          "box" + boxOfHost[host]));
    }
    return ring;
  }

  /**
   * The model: every virtual node sorted by clockwise distance from the position; first the
   * members of domains (and hosts) not seen before in that order, then members of hosts not
   * seen before; a down member's host and domain count as seen.
   */
  static List<Member> naiveChain(Ring ring, long position, Set<String> down) {
    List<Vnode> all = new ArrayList<>();
    for (Member m : ring.members()) {
      for (int i = 0; i < ring.vnodesPerMember(); i++) {
        all.add(new Vnode(ring.hash().virtualNodePosition(m.id(), i), m));
      }
    }
    all.sort(Comparator.comparing((Vnode v) -> v.position() - position, Long::compareUnsigned));
    List<Member> chain = new ArrayList<>();
    Set<String> hosts = new HashSet<>();
    Set<String> domains = new HashSet<>();
    for (Vnode v : all) {
      Member m = v.member();
      if (chain.size() < ring.replicas() && !hosts.contains(m.host())
          && !domains.contains(m.domain())) {
        hosts.add(m.host());
        domains.add(m.domain());
        if (!down.contains(m.id())) {
          chain.add(m);
        }
      }
    }
    for (Vnode v : all) {
      Member m = v.member();
      if (chain.size() < ring.replicas() && hosts.add(m.host()) && !down.contains(m.id())) {
        chain.add(m);
      }
    }
    return chain;
  }

  private static long distinct(Ring ring, java.util.function.Function<Member, String> of) {
    return ring.members().stream().map(of).distinct().count();
  }

  @Test
  void chainFor_randomClustersInBoxes_matchesTheModel_spansMinOfReplicasAndBoxes() {
    Random random = new Random(31);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring ring = randomRing(random, 1 + random.nextInt(12), 1 + random.nextInt(5));
      for (int p = 0; p < POSITIONS; p++) {
        long position = random.nextLong();
        List<Member> chain = ring.chainFor(position).members();
        String where = "seed 31, cluster " + c + ", " + ring.members() + " position "
            + Long.toHexString(position);
        assertEquals(naiveChain(ring, position, Set.of()), chain, where);
        assertEquals(Math.min(ring.replicas(), distinct(ring, Member::host)), chain.size(),
            where);
        assertEquals(chain.size(), chain.stream().map(Member::host).distinct().count(), where);
        assertEquals(Math.min(ring.replicas(), distinct(ring, Member::domain)),
            chain.stream().map(Member::domain).distinct().count(), where);
      }
    }
  }

  /**
   * One box loses its supply: every chain loses at most one member (while there are as many
   * boxes as replicas), the rest of each chain serves on in order, and the chains refill from
   * live hosts (the model, with the box's members down: the newcomers copy, pending); a chain wholly in the box (one
   * replica, or too few boxes) is orphaned until the box comes back.
   */
  @Test
  void withMembersDown_aWholeBox_everyChainKeepsAllButOneMember_refillsAsTheModel() {
    Random random = new Random(37);
    for (int c = 0; c < CLUSTERS; c++) {
      Ring ring = randomRing(random, 2 + random.nextInt(12), 2 + random.nextInt(4));
      String box = ring.members().iterator().next().domain();
      Set<String> inBox = ring.members().stream().filter(m -> m.domain().equals(box))
          .map(Member::id).collect(Collectors.toSet());
      if (inBox.size() == ring.members().size()) {
        continue; // a cluster in one box: nothing survives its cut
      }
      Ring cut = ring.withMembersDown(inBox);
      boolean enoughBoxes = distinct(ring, Member::domain) >= ring.replicas();
      for (int p = 0; p < POSITIONS; p++) {
        long position = random.nextLong();
        String where = "seed 37, cluster " + c + ", " + box + " cut from " + ring.members()
            + " position " + Long.toHexString(position);
        List<Member> before = ring.chainFor(position).members();
        Chain after = cut.chainFor(position);
        List<Member> survivors = before.stream().filter(m -> !inBox.contains(m.id())).toList();
        if (enoughBoxes) {
          assertTrue(survivors.size() >= before.size() - 1, where + ": " + before);
        }
        if (survivors.isEmpty()) { // orphaned: it waits for the box (Orphans), no copy from none
          assertTrue(!enoughBoxes || ring.replicas() == 1, where + ": " + before);
          assertEquals(List.of(), after.members(), where);
          continue;
        }
        assertEquals(survivors, after.members().subList(0, survivors.size()), where);
        Set<Member> serveOrCopy = new HashSet<>(after.members());
        serveOrCopy.addAll(after.pending());
        assertEquals(new HashSet<>(naiveChain(ring, position, inBox)), serveOrCopy, where);
      }
    }
  }

  /** With every member in one domain, chains are those of hosts alone (the ring before). */
  @Test
  void oneDomainForAll_chainsAsPlacedByHostAlone() {
    Random random = new Random(43);
    for (int c = 0; c < 50; c++) {
      Ring byHost = Ring.empty(HASH, 4, 3);
      Ring oneBox = Ring.empty(HASH, 4, 3);
      for (int i = 0; i < 2 + random.nextInt(9); i++) {
        String host = "host" + random.nextInt(6);
        byHost = byHost.withMember(new Member("b" + i, host, 7000 + i));
        oneBox = oneBox.withMember(new Member("b" + i, host, 7000 + i, "bench"));
      }
      for (int p = 0; p < POSITIONS; p++) {
        long position = random.nextLong();
        assertEquals(byHost.chainFor(position).members().stream().map(Member::id).toList(),
            oneBox.chainFor(position).members().stream().map(Member::id).toList(),
            "seed 43, cluster " + c);
      }
    }
  }

  @Test
  void member_domainDefaultsToHost_badDomainRefusedByName() {
    assertEquals("10.0.0.1", new Member("b0", "10.0.0.1", 7000).domain());
    assertEquals(new Member("b0", "10.0.0.1", 7000),
        new Member("b0", "10.0.0.1", 7000, "10.0.0.1"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Member("b0", "10.0.0.1", 7000, "box 1"));
    assertTrue(e.getMessage().contains("b0") && e.getMessage().contains("'box 1'"),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new Member("b0", "h", 7000, "a=b"));
    assertThrows(IllegalArgumentException.class, () -> new Member("b0", "h", 7000, " "));
  }

  /** A member cannot change domain in place: its chains were placed by it. */
  @Test
  void withAddressesOrBack_anotherDomain_refusedByName() {
    Ring ring = Ring.empty(HASH, 2, 2)
        .withMember(new Member("b0", "h0", 7000, "box1"))
        .withMember(new Member("b1", "h1", 7001, "box2"));
    IllegalArgumentException moved = assertThrows(IllegalArgumentException.class,
        () -> ring.withAddresses(List.of(new Member("b0", "h0", 7100, "box2"))));
    assertTrue(moved.getMessage().contains("b0") && moved.getMessage().contains("box2"),
        moved.getMessage());
    Ring down = ring.withMembersDown(List.of("b1"));
    assertThrows(IllegalArgumentException.class,
        () -> down.withMembersBack(List.of(new Member("b1", "h1", 7001, "box1"))));
    assertEquals(List.of("b1"), down.withMembersBack(List.of(new Member("b1", "h1", 7002,
        "box2"))).members().stream().filter(m -> m.port() == 7002).map(Member::id).toList());
  }
}
