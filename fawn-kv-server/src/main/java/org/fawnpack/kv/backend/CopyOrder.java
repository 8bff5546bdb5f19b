package org.fawnpack.kv.backend;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.fawnpack.kv.ring.Chain;

/** The order in which a copier starts its arcs' copies, when several run at once. */
final class CopyOrder {

  private CopyOrder() {}

  /**
   * {@code chains} taken one per tail in turn (tails in the order they first appear, each
   * tail's arcs in their given order), so that copies running at once come from different
   * sources where there are several.
   */
  static List<Chain> interleavingTails(List<Chain> chains) {
    Map<String, Deque<Chain>> byTail = new LinkedHashMap<>();
    for (Chain c : chains) {
      byTail.computeIfAbsent(c.tail().id(), t -> new ArrayDeque<>()).add(c);
    }
    List<Chain> order = new ArrayList<>(chains.size());
    while (order.size() < chains.size()) {
      for (Deque<Chain> arcs : byTail.values()) {
        if (!arcs.isEmpty()) {
          order.add(arcs.poll());
        }
      }
    }
    return order;
  }
}
