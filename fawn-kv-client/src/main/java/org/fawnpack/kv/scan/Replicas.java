package org.fawnpack.kv.scan;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;

/**
 * Which member of a chain a scan asks. A read of the tail's view of now asks the tail (the only
 * member whose every record is committed). A read as of a cut may ask any member, since every
 * one holds the cut: members on this host first (no network), then the tail, then the others;
 * each failure moves to the next.
 */
final class Replicas {
  private Replicas() {}

  /** The members to ask in turn; never empty for a chain with a live member. */
  static List<Member> inOrder(Chain chain, boolean atCut, Predicate<String> localHost) {
    if (chain.isEmpty()) {
      return List.of();
    }
    if (!atCut) {
      return List.of(chain.tail());
    }
    List<Member> order = new ArrayList<>();
    chain.members().stream().filter(m -> localHost.test(m.host())).forEach(order::add);
    if (!order.contains(chain.tail())) {
      order.add(chain.tail());
    }
    chain.members().stream().filter(m -> !order.contains(m)).forEach(order::add);
    return order;
  }

  /** The member for try number {@code attempt} (0 first) of a part. */
  static Member pick(Chain chain, boolean atCut, Predicate<String> localHost, int attempt) {
    List<Member> order = inOrder(chain, atCut, localHost);
    return order.isEmpty() ? null : order.get(Math.floorMod(attempt, order.size()));
  }
}
