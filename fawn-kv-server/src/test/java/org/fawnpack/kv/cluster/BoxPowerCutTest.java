package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * Six back-ends (child JVMs) in three boxes of two, each named by {@code fawn.kv.backend.domain}
 * as boards sharing a supply would be. One box loses its supply under the checked workload:
 * both its back-ends SIGKILLed at once. Placed by host alone, some chain would hold both and
 * keep one member; placed by domain, every chain spans the three boxes, so each keeps two
 * serving members, no arc is orphaned, and every key's history stays linearizable.
 */
class BoxPowerCutTest extends ChildClusterTest {
  private static final Map<String, String> BOX = Map.of("b1", "box1", "b2", "box1",
      "b3", "box2", "b4", "box2", "b5", "box3", "b6", "box3");

  @Override
  int backends() {
    return 6;
  }

  @Override
  Map<String, String> ownSettings(int i) {
    return Map.of("fawn.kv.backend.domain", BOX.get("b" + i));
  }

  @Test
  void aWholeBoxKilled_everyChainKeepsTwoMembers_historiesLinearizable() throws Exception {
    Ring before = cluster.currentRing();
    for (Member m : before.members()) {
      assertEquals(BOX.get(m.id()), m.domain(), "as the ring holds " + m.id());
    }
    for (Chain chain : before.chains()) {
      assertEquals(3, chain.members().stream().map(Member::domain).distinct().count(),
          "chain " + chain + " spans every box");
    }
    Set<String> box2 = Set.of("b3", "b4");
    CheckedWorkload workload = new CheckedWorkload(cluster);
    Ring[] cut = new Ring[1];
    workload.run(List.of(cluster.frontEnd.address()), () -> {
      for (String id : box2) {
        cluster.kill9(id);
      }
      cut[0] = cluster.awaitRing(r -> box2.stream().allMatch(r::isDown), "box2 is down");
    });
    assertEquals(Map.of(), cut[0].orphans().lastChains(), "no arc lost every member");
    for (Chain chain : cut[0].chains()) {
      Set<String> serving = chain.members().stream().map(Member::id).collect(
          Collectors.toSet());
      assertTrue(serving.size() >= 2 && serving.stream().noneMatch(box2::contains),
          "chain " + chain + " kept two members of the other boxes");
    }
  }
}
