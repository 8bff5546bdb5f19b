package org.fawnpack.kv.ring;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.fawnpack.kv.store.KeyRange;

/**
 * The geometry of removing members for good: the placement without their virtual nodes, the
 * arcs that merges, and who may serve each merged arc at once. A member of a merged arc's new
 * chain serves it at once only when it served every arc merged into it (it merges its files
 * locally); any other member of the chain is pending there and copies the merged arc. A
 * removal with no such member for some merged arc has no source and is refused.
 */
final class Removals {
  private Removals() {}

  /** {@code members} and {@code down} without {@code removed}. */
  static Map<String, Member> without(Map<String, Member> members, Set<String> removed) {
    Map<String, Member> rest = new TreeMap<>(members);
    rest.keySet().removeAll(removed);
    return rest;
  }

  static Set<String> without(Set<String> ids, Set<String> removed) {
    Set<String> rest = new HashSet<>(ids);
    rest.removeAll(removed);
    return rest;
  }

  /**
   * The ids of the members of {@code ring} that serve every arc whose end lies in
   * {@code range} (arcs merged into it), or, when no arc ends there (it is part of one arc, a
   * join's piece), the members of the arc holding {@code end}.
   */
  static Set<String> servingAllOf(Ring ring, KeyRange range, long end) {
    Set<String> serving = null;
    for (Chain c : ring.chains()) {
      if (range.contains(c.range().endInclusive())) {
        Set<String> ids = ids(c.members());
        if (serving == null) {
          serving = ids;
        } else {
          serving.retainAll(ids);
        }
      }
    }
    return serving != null ? serving : ids(ring.chainFor(end).members());
  }

  private static Set<String> ids(List<Member> members) {
    Set<String> ids = new HashSet<>();
    for (Member m : members) {
      ids.add(m.id());
    }
    return ids;
  }

  /**
   * Refuses, by name, removing {@code ids} from {@code ring}: each must be a down member, the
   * ring settled (nobody copying, joining, leaving, removed already, no arc orphaned or
   * recovering), some member must stay, and every merged arc must keep a member that served all
   * of it.
   */
  static void check(Ring ring, Set<String> ids, Placement after) {
    for (String id : ids) {
      if (ring.member(id) == null || !ring.isDown(id)) {
        throw new IllegalArgumentException("back-end " + id + " is not a down member (epoch "
            + ring.epoch() + "): only a member that is down can be removed; a live one leaves"
            + " (fawn kv leave)");
      }
    }
    if (!ring.pending().isEmpty() || !ring.joining().isEmpty() || !ring.leaving().isEmpty()
        || !ring.removing().isEmpty() || !ring.orphans().lastChains().isEmpty()
        || !ring.orphans().sources().isEmpty()) {
      throw new IllegalArgumentException("a removal starts once none is copying, joining,"
          + " leaving or being removed and no arc waits for recovery (" + ring + ")");
    }
    if (after.arcs() == 0) {
      throw new IllegalArgumentException("back-ends " + ids + " are the last members of the"
          + " ring (epoch " + ring.epoch() + "): none would stay");
    }
    for (int i = 0; i < after.arcs(); i++) {
      KeyRange range = after.range(i);
      Set<String> sources = servingAllOf(ring, range, after.end(i));
      sources.retainAll(ids(after.liveWalk(i)));
      if (sources.isEmpty()) {
        throw new IllegalArgumentException("back-ends " + ids + " cannot be removed: no member"
            + " of the new chain of arc " + range + " holds every arc merged into it, so"
            + " nobody could give it a copy (epoch " + ring.epoch() + ")");
      }
      List<Chain> pieces = ring.chains().stream()
          .filter(c -> range.contains(c.range().endInclusive())).toList();
      for (Chain c : pieces) {
        if (pieces.size() > 1 && ring.orphans().lost().contains(c.range().endInclusive())) {
          throw new IllegalArgumentException("back-ends " + ids + " cannot be removed: arc "
              + c.range() + " is lost and would merge into " + range + " (epoch "
              + ring.epoch() + ")");
        }
      }
    }
  }
}
