package org.fawnpack.kv.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Orphaned arcs over random clusters losing members epoch after epoch until whole chains are
 * gone, against a model that only does set arithmetic: with members only going down, an arc's
 * serving members are those of the epoch before less the ones now down (replacements copy and
 * never serve here), so an arc is orphaned when that set is first empty, and its last chain is
 * the set before. Then everyone comes back, each orphaned arc is recovered from a member of its
 * last chain, and once the copiers serve every chain is the ring's walk again.
 */
class OrphansTest {
  private static final RingHash HASH = new RingHash("orphans test ring key".getBytes(
      StandardCharsets.UTF_8));

  private static Ring cluster(Random random, int members) {
    Ring ring = Ring.empty(HASH, 1 + random.nextInt(3), 3);
    for (int i = 0; i < members; i++) {
      ring = ring.withMember(new Member("b" + i, "10.0.0." + (i + 1), 7000));
    }
    return ring;
  }

  private static List<String> ids(List<Member> members) {
    return members.stream().map(Member::id).toList();
  }

  @Test
  void membersGoingDown_thenBack_thenRecovered_matchTheModel() {
    Random random = new Random(7);
    int orphanedSeen = 0;
    for (int c = 0; c < 100; c++) {
      Ring ring = cluster(random, 3 + random.nextInt(6));
      Map<Long, List<String>> serving = new TreeMap<>(); // the model
      for (Chain chain : ring.chains()) {
        serving.put(chain.range().endInclusive(), ids(chain.members()));
      }
      Map<Long, List<String>> expectedOrphans = new TreeMap<>();
      List<String> live = new ArrayList<>(ring.members().stream().map(Member::id).toList());
      Collections.shuffle(live, random);
      while (!live.isEmpty()) { // one or two down per epoch, until all are
        Set<String> goes = new HashSet<>(live.subList(0, Math.min(live.size(),
            1 + random.nextInt(2))));
        live.removeAll(goes);
        ring = ring.withMembersDown(goes);
        for (Map.Entry<Long, List<String>> e : serving.entrySet()) {
          List<String> after = e.getValue().stream().filter(id -> !goes.contains(id)).toList();
          if (after.isEmpty() && !e.getValue().isEmpty()) {
            expectedOrphans.put(e.getKey(), e.getValue());
          }
          e.setValue(after);
        }
        String where = "cluster " + c + ", " + ring;
        assertEquals(expectedOrphans, ring.orphans().lastChains(), where);
        for (Chain chain : ring.chains()) {
          assertEquals(serving.get(chain.range().endInclusive()), ids(chain.members()), where);
        }
      }
      orphanedSeen += expectedOrphans.size();
      Ring back = ring.withMembersBack(ring.members());
      assertEquals(expectedOrphans, back.orphans().lastChains(), "copiers do not serve yet");
      Map<Long, String> sources = new HashMap<>();
      expectedOrphans.forEach((end, last) -> sources.put(end,
          last.get(random.nextInt(last.size()))));
      Ring recovered = back.withRecovered(sources);
      assertEquals(Map.of(), recovered.orphans().lastChains());
      for (Chain chain : recovered.chains()) {
        long end = chain.range().endInclusive();
        String source = sources.get(end);
        List<String> walk = ids(back.chainFor(end).pending());
        if (source != null) {
          assertEquals(List.of(source), ids(chain.members()), "the source alone serves");
          List<String> copying = new ArrayList<>(walk);
          copying.remove(source);
          assertEquals(new HashSet<>(copying), new HashSet<>(ids(chain.pending())),
              "the walk copies it");
        }
      }
      Ring read = roundTrip(recovered);
      assertEquals(recovered.chains(), read.chains(), "stored and read back");
      assertEquals(recovered.orphans(), read.orphans());
      Ring whole = recovered.withPendingDone(recovered.pending().keySet());
      assertEquals(Orphans.NONE, whole.orphans());
      Ring settled = Ring.at(1, HASH, whole.vnodesPerMember(), 3, whole.members());
      for (Chain chain : whole.chains()) {
        assertEquals(settled.chainFor(chain.range().endInclusive()).members(), chain.members(),
            "cluster " + c + ": the walk serves again");
      }
    }
    assertTrue(orphanedSeen > 100, "the clusters orphaned too few arcs: " + orphanedSeen);
  }

  @Test
  void sourceDownAgain_whileItsWalkCopies_orphanedAgainWithItAlone() {
    Ring ring = cluster(new Random(3), 4);
    Ring down = ring.withMembersDown(ring.members().stream().map(Member::id).toList());
    Map.Entry<Long, List<String>> orphan = down.orphans().lastChains().entrySet().iterator()
        .next();
    Ring back = down.withMembersBack(down.members());
    String source = orphan.getValue().get(0);
    Ring recovered = back.withRecovered(Map.of(orphan.getKey(), source));
    Ring again = recovered.withMembersDown(List.of(source));
    assertEquals(List.of(source), again.orphans().lastChains().get(orphan.getKey()));
    assertTrue(again.orphans().sources().isEmpty());
  }

  @Test
  void withRecovered_refused_whenNotOrphaned_notOfItsLastChain_orDown() {
    Ring ring = cluster(new Random(5), 4);
    long end = ring.chains().get(0).range().endInclusive();
    assertThrows(IllegalArgumentException.class, () -> ring.withRecovered(Map.of(end, "b0")),
        "not orphaned");
    Ring down = ring.withMembersDown(ring.members().stream().map(Member::id).toList());
    long orphan = down.orphans().lastChains().keySet().iterator().next();
    List<String> last = down.orphans().lastChains().get(orphan);
    String outsider = down.members().stream().map(Member::id)
        .filter(id -> !last.contains(id)).findFirst().orElseThrow();
    Ring back = down.withMembersBack(down.members());
    assertThrows(IllegalArgumentException.class,
        () -> back.withRecovered(Map.of(orphan, outsider)), "not of its last chain");
    assertThrows(IllegalArgumentException.class,
        () -> down.withRecovered(Map.of(orphan, last.get(0))), "down");
  }

  @Test
  void lostArc_noMemberNoCopier_staysLost_theOthersRecoverAndSettle() {
    Ring ring = cluster(new Random(11), 5);
    Ring down = ring.withMembersDown(ring.members().stream().map(Member::id).toList());
    Map<Long, List<String>> orphans = down.orphans().lastChains();
    long gone = orphans.keySet().iterator().next();
    Ring back = down.withMembersBack(down.members());
    Ring lost = back.withLost(List.of(gone));
    assertEquals(Set.of(gone), lost.orphans().lost());
    assertTrue(lost.chainFor(gone).isEmpty());
    assertTrue(lost.chainFor(gone).pending().isEmpty(), "nobody copies a lost arc");
    assertTrue(lost.pending().values().stream().noneMatch(arcs -> arcs.contains(gone)));
    Map<Long, String> sources = new HashMap<>();
    lost.orphans().lastChains().forEach((end, last) -> sources.put(end, last.get(0)));
    Ring whole = lost.withRecovered(sources).withPendingDone(lost.withRecovered(sources)
        .pending().keySet());
    assertTrue(whole.orphans().isEmpty(), "every other arc recovered: " + whole);
    assertEquals(Set.of(gone), whole.orphans().lost(), "still lost");
    assertTrue(whole.chainFor(gone).isEmpty());
    Ring again = whole.withMembersDown(List.of("b0")).withMembersBack(whole.members().stream()
        .filter(m -> m.id().equals("b0")).toList());
    assertEquals(Set.of(gone), again.orphans().lost(), "lost across later epochs");
    Ring read = roundTrip(again);
    assertEquals(again.orphans(), read.orphans());
    assertEquals(again.chains(), read.chains());
    assertThrows(IllegalArgumentException.class, () -> ring.withLost(List.of(gone)),
        "an arc with live members is not lost");
  }

  private static Ring roundTrip(Ring ring) {
    return org.fawnpack.kv.zookeeper.RingCodec.decode(org.fawnpack.kv.zookeeper.RingCodec.encode(ring),
        HASH, "test");
  }
}
