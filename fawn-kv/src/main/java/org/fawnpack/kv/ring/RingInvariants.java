package org.fawnpack.kv.ring;

import java.util.Map;
import java.util.Set;

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
}
