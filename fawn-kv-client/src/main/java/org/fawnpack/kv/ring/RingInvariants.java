package org.fawnpack.kv.ring;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What every epoch must satisfy, checked when one is made or read back, so a damaged ring
 * znode or a wrong transition fails by name instead of routing wrongly: down and pending
 * back-ends are members, a pending one is live and copies only arcs it belongs to, and a
 * joining one is not a member yet.
 */
final class RingInvariants {
  private RingInvariants() {}

  static void check(long epoch, Map<String, Member> members, Set<String> down,
      Map<String, Set<Long>> pending, Map<String, Member> joining, Placement placement) {
    for (String id : down) {
      if (!members.containsKey(id)) {
        throw new IllegalArgumentException("back-end " + id + " is marked down but is not in"
            + " the ring (epoch " + epoch + ")");
      }
    }
    for (String id : joining.keySet()) {
      if (members.containsKey(id)) {
        throw new IllegalArgumentException("back-end " + id + " is joining but is a member"
            + " already (epoch " + epoch + ")");
      }
    }
    pending.forEach((id, arcEnds) -> {
      if (!members.containsKey(id) || down.contains(id)) {
        throw new IllegalArgumentException("back-end " + id + " is pending but is not a live"
            + " member (epoch " + epoch + ")");
      }
      for (long end : arcEnds) {
        int at = placement.arcEndingAt(end);
        if (at < 0 || !placement.liveWalk(at).contains(members.get(id))) {
          throw new IllegalArgumentException("back-end " + id + " is pending on arc "
              + Long.toHexString(end) + ", which is not an arc it belongs to (epoch " + epoch
              + ")");
        }
      }
    });
  }

  /**
   * Orphaned arcs are arcs, their last chains name members; a recovered arc's source is a live
   * member not copying that arc.
   */
  static void checkOrphans(long epoch, Map<String, Member> members, Set<String> down,
      Map<String, Set<Long>> pending, Orphans orphans, Placement placement) {
    orphans.lastChains().forEach((end, ids) -> {
      arc(epoch, end, placement, "orphaned");
      for (String id : ids) {
        if (!members.containsKey(id)) {
          throw new IllegalArgumentException("arc " + Long.toHexString(end) + " was last"
              + " served by " + id + ", which is not in the ring (epoch " + epoch + ")");
        }
      }
    });
    orphans.sources().forEach((end, id) -> {
      arc(epoch, end, placement, "recovered");
      if (!members.containsKey(id) || down.contains(id)
          || pending.getOrDefault(id, Set.of()).contains(end)) {
        throw new IllegalArgumentException("arc " + Long.toHexString(end) + " is recovered"
            + " from " + id + ", which is not a live member serving it (epoch " + epoch + ")");
      }
    });
  }

  private static void arc(long epoch, long end, Placement placement, String what) {
    if (placement.arcEndingAt(end) < 0) {
      throw new IllegalArgumentException(what + " arc " + Long.toHexString(end) + " is not an"
          + " arc of the ring (epoch " + epoch + ")");
    }
  }

  /**
   * Leaving members are live members, copying nothing, and no back-end joins meanwhile (one
   * change of membership at a time).
   */
  static void checkLeaving(long epoch, Map<String, Member> members, Set<String> down,
      Map<String, Set<Long>> pending, Map<String, Member> joining, Set<String> leaving) {
    for (String id : leaving) {
      if (!members.containsKey(id) || down.contains(id) || pending.containsKey(id)) {
        throw new IllegalArgumentException("back-end " + id + " is leaving but is not a live"
            + " member serving its arcs (epoch " + epoch + ")");
      }
    }
    if (!leaving.isEmpty() && !joining.isEmpty()) {
      throw new IllegalArgumentException("back-ends " + joining.keySet() + " join while "
          + leaving + " leave (epoch " + epoch + ")");
    }
  }

  /**
   * Members being removed are down members, and no back-end joins or leaves meanwhile (one
   * change of membership at a time).
   */
  static void checkRemoving(long epoch, Map<String, Member> members, Set<String> down,
      Map<String, Member> joining, Set<String> leaving, Set<String> removing) {
    for (String id : removing) {
      if (!members.containsKey(id) || !down.contains(id)) {
        throw new IllegalArgumentException("back-end " + id + " is being removed but is not a"
            + " down member (epoch " + epoch + ")");
      }
    }
    if (!removing.isEmpty() && (!joining.isEmpty() || !leaving.isEmpty())) {
      throw new IllegalArgumentException("back-ends " + removing + " are removed while others"
          + " join or leave (epoch " + epoch + ")");
    }
  }

  /** The settings every ring shares, and its epoch. */
  static void checkSettings(long epoch, int vnodes, int replicas) {
    if (epoch < 0) {
      throw new IllegalArgumentException("a ring epoch is not negative: " + epoch);
    }
    if (vnodes < 1 || vnodes > 1024) {
      throw new IllegalArgumentException("virtual nodes per back-end must be 1..1024: " + vnodes);
    }
    if (replicas < 1 || replicas > 16) {
      throw new IllegalArgumentException("replicas must be 1..16: " + replicas);
    }
  }

  /**
   * A member keeps its host and failure domain (chains are placed by both), moving or
   * {@code comingBack}.
   */
  static void checkSameHost(Member before, Member now, boolean comingBack) {
    if (!before.host().equals(now.host())) {
      throw new IllegalArgumentException("back-end " + now.id() + (comingBack
          ? " comes back on host " + now.host() + ", not " + before.host()
          : " moved from host " + before.host() + " to " + now.host())
          + ": chains are placed by host, so it must join as a new back-end");
    }
    if (!before.domain().equals(now.domain())) {
      throw new IllegalArgumentException("back-end " + now.id() + " names failure domain "
          + now.domain() + ", not " + before.domain() + ": chains are placed by domain, so it"
          + " must join as a new back-end");
    }
  }

  static Map<String, Member> withJoiners(Map<String, Member> members,
      Map<String, Member> joiners) {
    Map<String, Member> all = new TreeMap<>(members);
    all.putAll(joiners);
    return all;
  }

  /** Members by id; one listed twice is refused. */
  static Map<String, Member> byId(Collection<Member> members) {
    Map<String, Member> byId = new TreeMap<>();
    for (Member m : members) {
      if (byId.put(m.id(), m) != null) {
        throw new IllegalArgumentException("back-end " + m.id() + " is listed twice");
      }
    }
    return byId;
  }
}
