package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.store.KeyRange;
import org.junit.jupiter.api.Test;

/** {@link CopyOrder} against what it promises, checked on random lists. */
class CopyOrderTest {

  @Test
  void interleavingTails_everyArcOnce_tailsTakeTurns_eachTailsArcsInOrder() {
    Random random = new Random(7);
    for (int trial = 0; trial < 300; trial++) {
      int tails = 1 + random.nextInt(4);
      List<Chain> chains = new ArrayList<>();
      int arcs = random.nextInt(15);
      for (int i = 0; i < arcs; i++) {
        Member tail = new Member("b" + random.nextInt(tails), "127.0.0.1", 9000);
        chains.add(new Chain(new KeyRange(i * 10L, i * 10L + 5), List.of(tail), 1));
      }
      List<Chain> order = CopyOrder.interleavingTails(chains);

      assertEquals(new HashSet<>(chains), new HashSet<>(order));
      assertEquals(chains.size(), order.size());
      // Each tail's arcs keep their order.
      Map<String, List<Chain>> given = byTail(chains);
      assertEquals(given, byTail(order));
      // Turns: a tail's k-th arc comes in round k, so two adjacent arcs share a tail only
      // when every other tail has run out.
      for (int i = 1; i < order.size(); i++) {
        String tail = order.get(i).tail().id();
        if (tail.equals(order.get(i - 1).tail().id())) {
          for (Chain later : order.subList(i, order.size())) {
            assertEquals(tail, later.tail().id(), "order " + order);
          }
        }
      }
      assertTrue(order.isEmpty() || order.get(0).equals(chains.get(0)));
    }
  }

  private static Map<String, List<Chain>> byTail(List<Chain> chains) {
    Map<String, List<Chain>> by = new HashMap<>();
    for (Chain c : chains) {
      by.computeIfAbsent(c.tail().id(), t -> new ArrayList<>()).add(c);
    }
    return by;
  }
}
