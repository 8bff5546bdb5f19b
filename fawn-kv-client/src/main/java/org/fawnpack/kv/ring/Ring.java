package org.fawnpack.kv.ring;

import static org.fawnpack.kv.ring.RingInvariants.byId;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One epoch of the ring: the back-ends, each as {@code vnodes} virtual nodes at positions from
 * {@link RingHash}, and replica chains of {@code replicas} members on distinct hosts (and failure
 * domains, {@link Member}). Immutable; every change (a member down or back, a join, a leave)
 * makes the next epoch. The states a member goes through (down, pending, joining, leaving) are
 * described in the package's documentation ({@code package-info.java}). How each change makes
 * the next epoch is in {@link MembershipChanges}; what an epoch means for routing (placement,
 * frozen arcs, chains) in {@link RingRouting}.
 */
public final class Ring {
  private final long epoch;
  private final RingHash hash;
  private final int vnodes;
  private final int replicas;
  private final Map<String, Member> members;
  private final Set<String> down;
  /** Member id to the ends of the arcs it is copying (pending there). */
  private final Map<String, Set<Long>> pending;
  /** Back-ends about to join (not members yet), by id. */
  private final Map<String, Member> joining;
  /** Live members handing their arcs over before they leave, by id. */
  private final Set<String> leaving;
  /** Down members about to be removed for good: the arcs they bound merge. */
  private final Set<String> removing;
  /** Arcs every serving member of which is down, and arcs being recovered from one file. */
  private final Orphans orphans;
  /** Placement, frozen arcs and chains, built once: routing asks for one on every request. */
  private final RingRouting routing;

  Ring(long epoch, RingHash hash, int vnodes, int replicas, Map<String, Member> members,
      Set<String> down, Map<String, Set<Long>> pending, Map<String, Member> joining,
      Set<String> leaving, Set<String> removing, Orphans orphans) {
    this.epoch = epoch;
    this.hash = hash;
    this.vnodes = vnodes;
    this.replicas = replicas;
    this.members = Map.copyOf(members);
    this.down = Set.copyOf(down);
    Map<String, Set<Long>> copy = new TreeMap<>();
    pending.forEach((id, arcs) -> {
      Set<Long> copying = new HashSet<>(arcs);
      copying.removeAll(orphans.lost()); // nobody copies a lost arc
      if (!copying.isEmpty()) {
        copy.put(id, Set.copyOf(copying));
      }
    });
    this.pending = Map.copyOf(copy);
    this.joining = Map.copyOf(joining);
    this.leaving = Set.copyOf(leaving);
    this.removing = Set.copyOf(removing);
    this.orphans = orphans;
    this.routing = new RingRouting(epoch, hash, vnodes, replicas, this.members, this.down,
        this.pending, this.joining, this.leaving, this.removing, orphans);
  }

  /** The ring before any back-end joined (epoch 0). */
  public static Ring empty(RingHash hash, int vnodes, int replicas) {
    RingInvariants.checkSettings(0, vnodes, replicas);
    return new Ring(0, hash, vnodes, replicas, Map.of(), Set.of(), Map.of(), Map.of(),
        Set.of(), Set.of(), Orphans.NONE);
  }

  /** The ring of epoch {@code epoch} with exactly {@code members}, none down. */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members) {
    return at(epoch, hash, vnodes, replicas, members, Set.of(), Map.of(), List.of(), Set.of());
  }

  /**
   * The ring of epoch {@code epoch} with exactly {@code members}, of which {@code down} (ids)
   * are down, {@code pending} (id to arc ends) are copying arcs and {@code leaving} (ids) are
   * handing theirs over, and back-ends {@code joining}, as read from its stored form.
   */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members, Collection<String> down, Map<String, Set<Long>> pending,
      Collection<Member> joining, Collection<String> leaving) {
    return at(epoch, hash, vnodes, replicas, members, down, pending, joining, leaving, Set.of(),
        Orphans.NONE);
  }

  /**
   * As above, with down members {@code removing} about to be removed for good, and arcs
   * orphaned and arcs being recovered ({@link Orphans}).
   */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members, Collection<String> down, Map<String, Set<Long>> pending,
      Collection<Member> joining, Collection<String> leaving, Collection<String> removing,
      Orphans orphans) {
    RingInvariants.checkSettings(epoch, vnodes, replicas);
    return new Ring(epoch, hash, vnodes, replicas, byId(members), new HashSet<>(down), pending,
        byId(joining), new HashSet<>(leaving), new HashSet<>(removing), orphans);
  }

  /** The next epoch with {@code member} added at once: placement only, for tests and tools. */
  public Ring withMember(Member member) {
    return MembershipChanges.placementWith(this, member);
  }

  /**
   * The next epoch with {@code moved} (members by id) at their new ports: the same arcs,
   * chains, down and pending members, since placement depends on ids, hosts and domains only. A
   * back-end restarted on another port keeps its place this way.
   *
   * @throws IllegalArgumentException when one is not a live member, or names another host
   */
  public Ring withAddresses(Collection<Member> moved) {
    return MembershipChanges.addresses(this, moved);
  }

  /** The next epoch without back-end {@code id}: placement only, for tests and tools. */
  public Ring withoutMember(String id) {
    return MembershipChanges.placementWithout(this, id);
  }

  /**
   * The next epoch with back-ends {@code ids} down: the same arcs; chains without them, extended
   * by the next live members on new hosts, each pending on the arcs it must first copy.
   *
   * @throws IllegalArgumentException when one is not in the ring, or none is newly down
   */
  public Ring withMembersDown(Collection<String> ids) {
    return MembershipChanges.membersDown(this, ids);
  }

  /**
   * The next epoch with down members {@code back} live again, at the addresses given: each takes
   * its old place in its chains, pending on every arc there until it has copied it (its own
   * files may lack writes made while it was down), and the replacements it displaces leave
   * those chains.
   *
   * @throws IllegalArgumentException when one is not a down member, or names another host
   */
  public Ring withMembersBack(Collection<Member> back) {
    return MembershipChanges.membersBack(this, back);
  }

  /**
   * The next epoch in which back-ends {@code joiners} are joining: the arcs they will change are
   * frozen (take no writes) so that the writes already taken settle on every member.
   *
   * @throws IllegalArgumentException when one is a member, or a join is under way
   */
  public Ring withJoining(Collection<Member> joiners) {
    return MembershipChanges.joining(this, joiners);
  }

  /**
   * The next epoch in which the joining back-ends are members: their virtual nodes split the
   * frozen arcs, and each is pending on the arcs it belongs to.
   *
   * @throws IllegalArgumentException when none is joining
   */
  public Ring withJoined() {
    return MembershipChanges.joined(this);
  }

  /** The next epoch without the join under way (a joiner went): its arcs take writes again. */
  public Ring withJoinCancelled() {
    return MembershipChanges.joinCancelled(this);
  }

  /**
   * The next epoch in which members {@code ids} are leaving: they serve on while each of their
   * chains names, pending after its tail, the member that will take their place. Refused when
   * one is not a live member, when members copy, join or leave already, or when an arc would
   * keep fewer than {@code replicas} hosts.
   */
  public Ring withLeaving(Collection<String> ids) {
    return MembershipChanges.leaving(this, ids);
  }

  /**
   * The next epoch in which the leaving members have left: marked down (their virtual nodes
   * keep bounding the arcs), their chains closed up around them; none may still be copying.
   */
  public Ring withLeft() {
    return MembershipChanges.left(this);
  }

  /**
   * The next epoch in which down members {@code ids} are being removed for good: the arcs
   * their virtual nodes bound, and the arcs that will take those in, are frozen (take no
   * writes) so the writes already taken settle on every member before the arcs merge.
   *
   * @throws IllegalArgumentException naming the reason ({@link Removals#check}) when one is
   *     not down, the ring is not settled, or a merged arc would have no member to serve it
   */
  public Ring withRemoving(Collection<String> ids) {
    return MembershipChanges.removing(this, ids);
  }

  /**
   * The next epoch without the members being removed: their virtual nodes are gone, so each
   * arc they bound is merged into its successor's; a member of a merged arc's chain that
   * served all of it merges its files and serves on, any other copies it first (pending).
   */
  public Ring withRemoved() {
    return MembershipChanges.removed(this);
  }

  /** The next epoch without the removal under way: its frozen arcs take writes again. */
  public Ring withRemovalCancelled() {
    return MembershipChanges.removalCancelled(this);
  }

  /**
   * The next epoch in which each orphaned arc of {@code sources} (arc end to member id) is
   * recovered from that member's file: it alone serves the arc, and the live members of the
   * arc's walk, pending there, copy it.
   *
   * @throws IllegalArgumentException when an arc is not orphaned, or its source is not a live
   *     member of its last chain
   */
  public Ring withRecovered(Map<Long, String> sources) {
    return MembershipChanges.recovered(this, sources);
  }

  /**
   * The next epoch with the orphaned arcs {@code ends} lost: an operator said every copy is
   * gone for good; their requests fail by name, and nobody waits to copy them.
   *
   * @throws IllegalArgumentException when one is not orphaned
   */
  public Ring withLost(java.util.Collection<Long> ends) {
    return MembershipChanges.lost(this, ends);
  }

  /** Every member by id (for {@link MembershipChanges}). */
  Map<String, Member> membersById() {
    return members;
  }

  /** Where this epoch's virtual nodes fall and how its walks go. */
  Placement placement() {
    return routing.placement();
  }

  /** The joining back-ends by id. */
  Map<String, Member> joiningById() {
    return joining;
  }

  /** The orphaned arcs and the arcs being recovered ({@link Orphans}). */
  public Orphans orphans() {
    return orphans;
  }

  /**
   * The next epoch in which back-ends {@code ids} serve every arc they were copying (each
   * reported it holds them all); refused when one of them is pending nowhere.
   */
  public Ring withPendingDone(Collection<String> ids) {
    return MembershipChanges.pendingDone(this, ids);
  }

  /** True when {@code id} serves some arc (is a member of its chain, not only copying it). */
  public boolean servesAnyArc(String id) {
    return chains().stream().anyMatch(c -> c.members().stream().anyMatch(m -> m.id().equals(id)));
  }

  /** Member id to the ends of the arcs it is copying, for every pending member. */
  public Map<String, Set<Long>> pending() {
    return pending;
  }

  /** The ends of the arcs {@code id} is copying (empty when none). */
  public Set<Long> pendingArcsOf(String id) {
    return pending.getOrDefault(id, Set.of());
  }

  /** The back-ends joining in this epoch (not members yet). */
  public Collection<Member> joining() {
    return joining.values();
  }

  /** The members leaving by plan (handing their arcs over), by id. */
  public Set<String> leaving() {
    return leaving;
  }

  /** The down members being removed for good (their arcs merge in the next epoch). */
  public Set<String> removing() {
    return removing;
  }

  /** The ends of the arcs frozen by the join or removal under way (empty when none). */
  public Set<Long> frozen() {
    return routing.frozen();
  }

  public long epoch() {
    return epoch;
  }

  public int replicas() {
    return replicas;
  }

  public int vnodesPerMember() {
    return vnodes;
  }

  public RingHash hash() {
    return hash;
  }

  /** Every member, down ones included (their virtual nodes still bound the arcs). */
  public Collection<Member> members() {
    return members.values();
  }

  /** The member with id {@code id}, down or not, or null when it is not in the ring. */
  public Member member(String id) {
    return members.get(id);
  }

  /** The ids of the members that are down. */
  public Set<String> down() {
    return down;
  }

  public boolean isDown(String id) {
    return down.contains(id);
  }

  /** The chain of the arc holding {@code userKey}. */
  public Chain chainForKey(byte[] userKey) {
    return chainFor(hash.position(userKey));
  }

  /** The chain of the arc holding ring position {@code position}. */
  public Chain chainFor(long position) {
    return routing.chainFor(position);
  }

  /** Every arc's chain, in ring order: each is one FAWN-DS file on each of its members. */
  public List<Chain> chains() {
    return routing.chains();
  }

  @Override
  public String toString() {
    return "ring epoch " + epoch + ": " + members.size() + " back-ends x " + vnodes
        + " virtual nodes, " + replicas + " replicas" + (down.isEmpty() ? ""
            : ", down: " + String.join(", ", new TreeSet<>(down)))
        + (pending.isEmpty() ? "" : ", copying: " + String.join(", ", pending.keySet()))
        + (joining.isEmpty() ? "" : ", joining: " + String.join(", ", joining.keySet()))
        + (leaving.isEmpty() ? "" : ", leaving: " + String.join(", ", new TreeSet<>(leaving)))
        + (removing.isEmpty() ? "" : ", removing: " + String.join(", ",
            new TreeSet<>(removing)))
        + (orphans.lastChains().isEmpty() ? "" : ", orphaned arcs: "
            + orphans.lastChains().size())
        + (orphans.lost().isEmpty() ? "" : ", lost arcs: " + orphans.lost().size())
        + (orphans.sources().isEmpty() ? "" : ", recovering: " + orphans.sources().size()
            + " arcs from " + String.join(", ", new TreeSet<>(orphans.sources().values())));
  }
}
