package org.fawnpack.kv.ring;

import static org.fawnpack.kv.ring.RingInvariants.withJoiners;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one epoch's membership means for requests: where its virtual nodes fall
 * ({@link Placement}), which arcs the join or removal under way froze, and every arc's chain.
 * Built once per {@link Ring}, checked against the ring's invariants ({@link RingInvariants})
 * on the way, since routing asks for a chain on every request.
 */
final class RingRouting {
  private final long epoch;
  private final Placement placement;
  /** Ends of the arcs the joining back-ends, or the removal, will change: no writes. */
  private final Set<Long> frozen;
  /** Every arc's chain in ring order. */
  private final List<Chain> chains;

  /**
   * The routing of a ring with these members, down, pending (arcs being copied, none of them
   * lost), joining, leaving and removing ones, and orphans.
   *
   * @throws IllegalArgumentException when the ring breaks an invariant
   */
  RingRouting(long epoch, RingHash hash, int vnodes, int replicas, Map<String, Member> members,
      Set<String> down, Map<String, Set<Long>> pending, Map<String, Member> joining,
      Set<String> leaving, Set<String> removing, Orphans orphans) {
    this.epoch = epoch;
    this.placement = new Placement(hash, vnodes, replicas, members, down, leaving);
    RingInvariants.checkLeaving(epoch, members, down, pending, joining, leaving);
    RingInvariants.check(epoch, members, down, pending, joining, placement);
    RingInvariants.checkRemoving(epoch, members, down, joining, leaving, removing);
    this.frozen = !joining.isEmpty() ? placement.arcsChangedBy(joining,
        new Placement(hash, vnodes, replicas, withJoiners(members, joining), down))
        : removing.isEmpty() ? Set.of() : placement.arcsMergedBy(new Placement(hash, vnodes,
            replicas, Removals.without(members, removing), Removals.without(down, removing)));
    RingInvariants.checkOrphans(epoch, members, down, pending, orphans, placement);
    List<Chain> built = new ArrayList<>(placement.arcs());
    for (int i = 0; i < placement.arcs(); i++) {
      built.add(orphans.served(placement.chain(i, pending, frozen), members));
    }
    this.chains = List.copyOf(built);
  }

  Placement placement() {
    return placement;
  }

  Set<Long> frozen() {
    return frozen;
  }

  List<Chain> chains() {
    return chains;
  }

  /** The chain of the arc holding ring position {@code position}. */
  Chain chainFor(long position) {
    if (placement.arcs() == 0) {
      throw new IllegalStateException("the ring has no back-ends (epoch " + epoch + ")");
    }
    return chains.get(placement.arcHolding(position));
  }
}
