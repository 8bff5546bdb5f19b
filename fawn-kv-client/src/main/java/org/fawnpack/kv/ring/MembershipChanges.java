package org.fawnpack.kv.ring;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How the next epoch is made when membership changes: who is pending where (the general rule),
 * and the steps of joins, planned leaves, removals for good and recoveries of orphaned arcs.
 * {@link Ring}'s public methods of the same names document each step; this keeps their
 * arithmetic out of the value class.
 */
final class MembershipChanges {
  private MembershipChanges() {}

  /**
   * The epoch after {@code ring} with these members, down, joining, leaving and removing ones.
   * Pending: whoever is in an arc's live walk now but did not serve it before (one still
   * copying stays pending); a merged arc's member held all of it only if it served every arc
   * merged into it.
   */
  static Ring next(Ring ring, Map<String, Member> nextMembers, Set<String> nextDown,
      Map<String, Member> nextJoining, Set<String> nextLeaving, Set<String> nextRemoving) {
    Placement after = new Placement(ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        nextMembers, nextDown, nextLeaving);
    Map<String, Set<Long>> nextPending = new TreeMap<>();
    for (int i = 0; i < after.arcs(); i++) {
      Set<String> before = Removals.servingAllOf(ring, after.range(i), after.end(i));
      for (Member m : after.liveWalk(i)) {
        if (!before.contains(m.id())) {
          nextPending.computeIfAbsent(m.id(), k -> new HashSet<>()).add(after.end(i));
        }
      }
    }
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        nextMembers, nextDown, nextPending, nextJoining, nextLeaving, nextRemoving,
        ring.orphans().after(ring::chainFor, after, nextPending, nextDown));
  }

  /** See {@link Ring#withLeaving}. */
  static Ring leaving(Ring ring, Collection<String> ids) {
    for (String id : ids) {
      if (ring.member(id) == null || ring.isDown(id)) {
        throw new IllegalArgumentException("back-end " + id + " is not a live member (epoch "
            + ring.epoch() + ")");
      }
    }
    if (!ring.pending().isEmpty() || !ring.joining().isEmpty() || !ring.leaving().isEmpty()
        || !ring.removing().isEmpty()) {
      throw new IllegalArgumentException("a leave starts once none is copying, joining,"
          + " leaving or being removed (epoch " + ring.epoch() + ": " + ring + ")");
    }
    Ring next = next(ring, ring.membersById(), ring.down(), Map.of(), new HashSet<>(ids),
        Set.of());
    Placement walks = next.placement();
    for (int i = 0; i < walks.arcs(); i++) {
      if (walks.liveWalk(i).size() < ring.replicas()) {
        throw new IllegalArgumentException("back-ends " + ids + " cannot leave: arc "
            + walks.range(i) + " would keep fewer than " + ring.replicas() + " replicas on"
            + " distinct hosts (epoch " + ring.epoch() + ")");
      }
    }
    return next;
  }

  /** See {@link Ring#withLeft}. */
  static Ring left(Ring ring) {
    if (ring.leaving().isEmpty() || !ring.pending().isEmpty()) {
      throw new IllegalArgumentException("no leave can end now: leaving " + ring.leaving()
          + ", copying " + ring.pending().keySet() + " (epoch " + ring.epoch() + ")");
    }
    Set<String> nowDown = new HashSet<>(ring.down());
    nowDown.addAll(ring.leaving());
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), nowDown, Map.of(), ring.joiningById(), Set.of(), Set.of(),
        ring.orphans());
  }

  /** See {@link Ring#withRemoving}. */
  static Ring removing(Ring ring, Collection<String> ids) {
    Set<String> removed = Set.copyOf(ids);
    Removals.check(ring, removed, new Placement(ring.hash(), ring.vnodesPerMember(),
        ring.replicas(), Removals.without(ring.membersById(), removed),
        Removals.without(ring.down(), removed)));
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), ring.down(), ring.pending(), ring.joiningById(), ring.leaving(),
        removed, ring.orphans());
  }

  /** See {@link Ring#withRemoved}. */
  static Ring removed(Ring ring) {
    if (ring.removing().isEmpty() || !ring.pending().isEmpty()) {
      throw new IllegalArgumentException("no removal can end now: removing " + ring.removing()
          + ", copying " + ring.pending().keySet() + " (epoch " + ring.epoch() + ")");
    }
    return next(ring, Removals.without(ring.membersById(), ring.removing()),
        Removals.without(ring.down(), ring.removing()), ring.joiningById(), ring.leaving(),
        Set.of());
  }

  /** See {@link Ring#withMembersDown}. */
  static Ring membersDown(Ring ring, Collection<String> ids) {
    Set<String> nowDown = new HashSet<>(ring.down());
    for (String id : ids) {
      if (ring.member(id) == null) {
        throw new IllegalArgumentException("back-end " + id + " is not in the ring (epoch "
            + ring.epoch() + ")");
      }
      nowDown.add(id);
    }
    if (nowDown.equals(ring.down())) {
      throw new IllegalArgumentException("back-ends " + ids + " are down already (epoch "
          + ring.epoch() + ")");
    }
    Set<String> stillLeaving = new HashSet<>(ring.leaving());
    stillLeaving.removeAll(nowDown); // a leaver that failed is simply down
    return next(ring, ring.membersById(), nowDown, ring.joiningById(), stillLeaving,
        ring.removing());
  }

  /** See {@link Ring#withMembersBack}. */
  static Ring membersBack(Ring ring, Collection<Member> back) {
    Set<String> stillDown = new HashSet<>(ring.down());
    Map<String, Member> next = new TreeMap<>(ring.membersById());
    for (Member m : back) {
      if (!stillDown.remove(m.id())) {
        throw new IllegalArgumentException("back-end " + m.id() + " is not down in the ring"
            + " (epoch " + ring.epoch() + ")");
      }
      RingInvariants.checkSameHost(ring.member(m.id()), m, true);
      next.put(m.id(), m);
    }
    return next(ring, next, stillDown, ring.joiningById(), ring.leaving(), ring.removing());
  }

  /** See {@link Ring#withJoining}. */
  static Ring joining(Ring ring, Collection<Member> joiners) {
    if (!ring.joining().isEmpty() || !ring.leaving().isEmpty() || !ring.removing().isEmpty()) {
      throw new IllegalArgumentException("back-ends " + (!ring.joining().isEmpty()
          ? ring.joiningById().keySet() + " are joining" : !ring.leaving().isEmpty()
          ? ring.leaving() + " are leaving" : ring.removing() + " are being removed")
          + " already (epoch " + ring.epoch() + ")");
    }
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), ring.down(), ring.pending(), RingInvariants.byId(joiners), Set.of(),
        Set.of(), ring.orphans());
  }

  /** See {@link Ring#withJoined}. */
  static Ring joined(Ring ring) {
    if (ring.joining().isEmpty()) {
      throw new IllegalArgumentException("no back-end is joining (epoch " + ring.epoch() + ")");
    }
    return next(ring, RingInvariants.withJoiners(ring.membersById(), ring.joiningById()),
        ring.down(), Map.of(), Set.of(), Set.of());
  }

  /** See {@link Ring#withJoinCancelled}. */
  static Ring joinCancelled(Ring ring) {
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), ring.down(), ring.pending(), Map.of(), Set.of(), Set.of(),
        ring.orphans());
  }

  /** See {@link Ring#withRemovalCancelled}. */
  static Ring removalCancelled(Ring ring) {
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), ring.down(), ring.pending(), ring.joiningById(), ring.leaving(),
        Set.of(), ring.orphans());
  }

  /** See {@link Ring#withRecovered}. */
  static Ring recovered(Ring ring, Map<Long, String> sources) {
    Map<String, Set<Long>> nextPending = new TreeMap<>();
    Orphans next = ring.orphans().recovered(sources, ring.down(), ring.pending(), nextPending,
        ring.epoch());
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), ring.down(), nextPending, ring.joiningById(), ring.leaving(),
        ring.removing(), next);
  }

  /** See {@link Ring#withLost}. */
  static Ring lost(Ring ring, Collection<Long> ends) {
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), ring.down(), ring.pending(), ring.joiningById(), ring.leaving(),
        ring.removing(), ring.orphans().withLost(ends, ring.epoch()));
  }

  /** See {@link Ring#withPendingDone}. */
  static Ring pendingDone(Ring ring, Collection<String> ids) {
    Map<String, Set<Long>> still = new TreeMap<>(ring.pending());
    for (String id : ids) {
      if (still.remove(id) == null) {
        throw new IllegalArgumentException("back-end " + id + " is pending on no arc (epoch "
            + ring.epoch() + ")");
      }
    }
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        ring.membersById(), ring.down(), still, ring.joiningById(), ring.leaving(),
        ring.removing(), ring.orphans().copiersDone(still));
  }

  /** See {@link Ring#withAddresses}. */
  static Ring addresses(Ring ring, Collection<Member> moved) {
    Map<String, Member> next = new TreeMap<>(ring.membersById());
    for (Member m : moved) {
      Member before = ring.member(m.id());
      if (before == null || ring.isDown(m.id())) {
        throw new IllegalArgumentException("back-end " + m.id() + " is not a live member"
            + " (epoch " + ring.epoch() + ")");
      }
      RingInvariants.checkSameHost(before, m, false);
      next.put(m.id(), m);
    }
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        next, ring.down(), ring.pending(), ring.joiningById(), ring.leaving(), ring.removing(),
        ring.orphans());
  }

  /** See {@link Ring#withMember}: placement only, nobody pending, no orphans. */
  static Ring placementWith(Ring ring, Member member) {
    if (ring.member(member.id()) != null) {
      throw new IllegalArgumentException("back-end " + member.id() + " is already in the ring"
          + " (epoch " + ring.epoch() + ")");
    }
    Map<String, Member> next = new TreeMap<>(ring.membersById());
    next.put(member.id(), member);
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        next, ring.down(), Map.of(), Map.of(), Set.of(), Set.of(), Orphans.NONE);
  }

  /** See {@link Ring#withoutMember}: placement only. */
  static Ring placementWithout(Ring ring, String id) {
    if (ring.member(id) == null) {
      throw new IllegalArgumentException("back-end " + id + " is not in the ring (epoch "
          + ring.epoch() + ")");
    }
    Map<String, Member> next = new TreeMap<>(ring.membersById());
    next.remove(id);
    Set<String> stillDown = new HashSet<>(ring.down());
    stillDown.remove(id);
    return new Ring(ring.epoch() + 1, ring.hash(), ring.vnodesPerMember(), ring.replicas(),
        next, stillDown, Map.of(), Map.of(), Set.of(), Set.of(), Orphans.NONE);
  }
}
