package org.fawnpack.kv.ring;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One epoch of the ring: the back-ends, each as {@code vnodes} virtual nodes at positions from
 * {@link RingHash}, and replica chains of {@code replicas} members on distinct hosts. Immutable;
 * a join or leave makes the next epoch.
 *
 * <p>A virtual node owns the arc from its predecessor (exclusive) to itself (inclusive), the
 * successor rule of Chord and FAWN. The arc's chain is its owner followed by the next virtual
 * nodes clockwise, skipping any whose host is already in the chain (FAWN's footnote 3, made a
 * rule: a chain never has two members on one host, so losing one machine costs a chain at most
 * one replica).
 *
 * <p>A member may be <em>down</em>: its ZooKeeper session ended, so the coordinator marked it in
 * the next epoch. A down member keeps its virtual nodes, so the arcs do not move, and keeps its
 * host out of the chains it was in; chains leave it out and take the next live member on a new
 * host instead. That replacement always comes after the chain's other members (the walk's
 * sequence of first-seen hosts does not depend on who is down), so each chain is its surviving
 * members in their old order, then the replacements. A replacement is <em>pending</em> on an
 * arc until it has copied the arc's file; meanwhile the chain serves reads from its old members
 * and, being short, takes no writes (chain replication's repair: shrink, then extend). A down
 * member that comes back takes its old place in the walk the same way: pending until it has
 * copied each arc, displacing the replacements that stood in for it.
 *
 * <p>A new back-end joins in three epochs. First it is <em>joining</em>: not yet a member, but
 * every arc its virtual nodes will split or whose chain it will enter is <em>frozen</em> (takes
 * no writes), so the writes already taken can settle on every member. Then it is a member: the
 * frozen arcs are split at its virtual nodes (each member splits its own file), it is pending
 * on the arcs it belongs to, and the members it displaces leave them. Then, its copies made, it
 * serves (as any copier).
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
  /** Ends of the arcs the joining back-ends will change: they take no writes. */
  private final Set<Long> frozen;
  private final Placement placement;

  private Ring(long epoch, RingHash hash, int vnodes, int replicas, Map<String, Member> members,
      Set<String> down, Map<String, Set<Long>> pending, Map<String, Member> joining) {
    this.epoch = epoch;
    this.hash = hash;
    this.vnodes = vnodes;
    this.replicas = replicas;
    this.members = Map.copyOf(members);
    this.down = Set.copyOf(down);
    Map<String, Set<Long>> copy = new TreeMap<>();
    pending.forEach((id, arcs) -> {
      if (!arcs.isEmpty()) {
        copy.put(id, Set.copyOf(arcs));
      }
    });
    this.pending = Map.copyOf(copy);
    this.joining = Map.copyOf(joining);
    this.placement = new Placement(hash, vnodes, replicas, this.members, this.down);
    RingInvariants.check(epoch, this.members, this.down, this.pending, this.joining, placement);
    this.frozen = joining.isEmpty() ? Set.of() : placement.arcsChangedBy(this.joining,
        new Placement(hash, vnodes, replicas, withJoiners(this.members, this.joining), this.down));
  }

  /** The ring before any back-end joined (epoch 0). */
  public static Ring empty(RingHash hash, int vnodes, int replicas) {
    if (vnodes < 1 || vnodes > 1024) {
      throw new IllegalArgumentException("virtual nodes per back-end must be 1..1024: " + vnodes);
    }
    if (replicas < 1 || replicas > 16) {
      throw new IllegalArgumentException("replicas must be 1..16: " + replicas);
    }
    return new Ring(0, hash, vnodes, replicas, Map.of(), Set.of(), Map.of(), Map.of());
  }

  /** The ring of epoch {@code epoch} with exactly {@code members}, none down. */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members) {
    return at(epoch, hash, vnodes, replicas, members, Set.of(), Map.of(), List.of());
  }

  /**
   * The ring of epoch {@code epoch} with exactly {@code members}, of which {@code down} (ids)
   * are down and {@code pending} (id to arc ends) are copying arcs, and back-ends
   * {@code joining}, as read from its stored form.
   */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members, Collection<String> down, Map<String, Set<Long>> pending,
      Collection<Member> joining) {
    empty(hash, vnodes, replicas); // the same checks
    if (epoch < 0) {
      throw new IllegalArgumentException("a ring epoch is not negative: " + epoch);
    }
    return new Ring(epoch, hash, vnodes, replicas, byId(members), new HashSet<>(down), pending,
        byId(joining));
  }

  private static Map<String, Member> withJoiners(Map<String, Member> members,
      Map<String, Member> joiners) {
    Map<String, Member> all = new TreeMap<>(members);
    all.putAll(joiners);
    return all;
  }

  private static Map<String, Member> byId(Collection<Member> members) {
    Map<String, Member> byId = new TreeMap<>();
    for (Member m : members) {
      if (byId.put(m.id(), m) != null) {
        throw new IllegalArgumentException("back-end " + m.id() + " is listed twice");
      }
    }
    return byId;
  }

  /** The next epoch with {@code member} added at once: placement only, for tests and tools. */
  public Ring withMember(Member member) {
    if (members.containsKey(member.id())) {
      throw new IllegalArgumentException("back-end " + member.id() + " is already in the ring"
          + " (epoch " + epoch + ")");
    }
    Map<String, Member> next = new TreeMap<>(members);
    next.put(member.id(), member);
    return new Ring(epoch + 1, hash, vnodes, replicas, next, down, Map.of(), Map.of());
  }

  /**
   * The next epoch with {@code moved} (members by id) at their new ports: the same arcs,
   * chains, down and pending members, since placement depends on ids and hosts only. A
   * back-end restarted on another port keeps its place this way.
   *
   * @throws IllegalArgumentException when one is not a live member, or names another host
   */
  public Ring withAddresses(Collection<Member> moved) {
    Map<String, Member> next = new TreeMap<>(members);
    for (Member m : moved) {
      Member before = members.get(m.id());
      if (before == null || down.contains(m.id())) {
        throw new IllegalArgumentException("back-end " + m.id() + " is not a live member"
            + " (epoch " + epoch + ")");
      }
      if (!before.host().equals(m.host())) {
        throw new IllegalArgumentException("back-end " + m.id() + " moved from host "
            + before.host() + " to " + m.host() + ": chains are placed by host, so it must"
            + " join as a new back-end");
      }
      next.put(m.id(), m);
    }
    return new Ring(epoch + 1, hash, vnodes, replicas, next, down, pending, joining);
  }

  /** The next epoch without back-end {@code id}: placement only, for tests and tools. */
  public Ring withoutMember(String id) {
    if (!members.containsKey(id)) {
      throw new IllegalArgumentException("back-end " + id + " is not in the ring (epoch "
          + epoch + ")");
    }
    Map<String, Member> next = new TreeMap<>(members);
    next.remove(id);
    Set<String> stillDown = new HashSet<>(down);
    stillDown.remove(id);
    return new Ring(epoch + 1, hash, vnodes, replicas, next, stillDown, Map.of(), Map.of());
  }

  /**
   * The next epoch with back-ends {@code ids} down: the same arcs; chains without them, extended
   * by the next live members on new hosts, each pending on the arcs it must first copy.
   *
   * @throws IllegalArgumentException when one is not in the ring, or none is newly down
   */
  public Ring withMembersDown(Collection<String> ids) {
    Set<String> nowDown = new HashSet<>(down);
    for (String id : ids) {
      if (!members.containsKey(id)) {
        throw new IllegalArgumentException("back-end " + id + " is not in the ring (epoch "
            + epoch + ")");
      }
      nowDown.add(id);
    }
    if (nowDown.equals(down)) {
      throw new IllegalArgumentException("back-ends " + ids + " are down already (epoch "
          + epoch + ")");
    }
    return next(members, nowDown, joining);
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
    Set<String> stillDown = new HashSet<>(down);
    Map<String, Member> next = new TreeMap<>(members);
    for (Member m : back) {
      if (!stillDown.remove(m.id())) {
        throw new IllegalArgumentException("back-end " + m.id() + " is not down in the ring"
            + " (epoch " + epoch + ")");
      }
      if (!members.get(m.id()).host().equals(m.host())) {
        throw new IllegalArgumentException("back-end " + m.id() + " comes back on host "
            + m.host() + ", not " + members.get(m.id()).host() + ": chains are placed by host,"
            + " so it must join as a new back-end");
      }
      next.put(m.id(), m);
    }
    return next(next, stillDown, joining);
  }

  /**
   * The next epoch in which back-ends {@code joiners} are joining: the arcs they will change are
   * frozen (take no writes) so that the writes already taken settle on every member.
   *
   * @throws IllegalArgumentException when one is a member, or a join is under way
   */
  public Ring withJoining(Collection<Member> joiners) {
    if (!joining.isEmpty()) {
      throw new IllegalArgumentException("back-ends " + joining.keySet() + " are joining"
          + " already (epoch " + epoch + ")");
    }
    return new Ring(epoch + 1, hash, vnodes, replicas, members, down, pending, byId(joiners));
  }

  /**
   * The next epoch in which the joining back-ends are members: their virtual nodes split the
   * frozen arcs, and each is pending on the arcs it belongs to.
   *
   * @throws IllegalArgumentException when none is joining
   */
  public Ring withJoined() {
    if (joining.isEmpty()) {
      throw new IllegalArgumentException("no back-end is joining (epoch " + epoch + ")");
    }
    return next(withJoiners(members, joining), down, Map.of());
  }

  /** The next epoch without the join under way (a joiner went): its arcs take writes again. */
  public Ring withJoinCancelled() {
    return new Ring(epoch + 1, hash, vnodes, replicas, members, down, pending, Map.of());
  }

  /**
   * The next epoch with exactly {@code nextMembers}, {@code nextDown} down and
   * {@code nextJoining}. Pending: whoever is in an arc's live walk now but did not serve the arc
   * holding it before (a member still copying stays pending; a newcomer starts).
   */
  private Ring next(Map<String, Member> nextMembers, Set<String> nextDown,
      Map<String, Member> nextJoining) {
    Placement after = new Placement(hash, vnodes, replicas, nextMembers, nextDown);
    Map<String, Set<Long>> nextPending = new TreeMap<>();
    for (int i = 0; i < after.arcs(); i++) {
      List<String> before = chainFor(after.end(i)).members().stream().map(Member::id).toList();
      for (Member m : after.liveWalk(i)) {
        if (!before.contains(m.id())) {
          nextPending.computeIfAbsent(m.id(), k -> new HashSet<>()).add(after.end(i));
        }
      }
    }
    return new Ring(epoch + 1, hash, vnodes, replicas, nextMembers, nextDown, nextPending,
        nextJoining);
  }

  /**
   * The next epoch in which back-ends {@code ids} serve every arc they were copying (each
   * reported that it holds them all).
   *
   * @throws IllegalArgumentException when one of them is pending nowhere
   */
  public Ring withPendingDone(Collection<String> ids) {
    Map<String, Set<Long>> still = new TreeMap<>(pending);
    for (String id : ids) {
      if (still.remove(id) == null) {
        throw new IllegalArgumentException("back-end " + id + " is pending on no arc (epoch "
            + epoch + ")");
      }
    }
    return new Ring(epoch + 1, hash, vnodes, replicas, members, down, still, joining);
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

  /** The ends of the arcs frozen by the join under way (empty when none). */
  public Set<Long> frozen() {
    return frozen;
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
    if (placement.arcs() == 0) {
      throw new IllegalStateException("the ring has no back-ends (epoch " + epoch + ")");
    }
    return chainAt(placement.arcHolding(position));
  }

  /** Every arc's chain, in ring order: each is one FAWN-DS file on each of its members. */
  public List<Chain> chains() {
    List<Chain> chains = new ArrayList<>(placement.arcs());
    for (int i = 0; i < placement.arcs(); i++) {
      chains.add(chainAt(i));
    }
    return chains;
  }

  private Chain chainAt(int arc) {
    long end = placement.end(arc);
    List<Member> serving = new ArrayList<>(replicas);
    List<Member> copying = new ArrayList<>();
    for (Member m : placement.liveWalk(arc)) {
      (pendingArcsOf(m.id()).contains(end) ? copying : serving).add(m);
    }
    return new Chain(placement.range(arc), serving, copying, replicas, frozen.contains(end));
  }

  @Override
  public String toString() {
    return "ring epoch " + epoch + ": " + members.size() + " back-ends x " + vnodes
        + " virtual nodes, " + replicas + " replicas" + (down.isEmpty() ? ""
            : ", down: " + String.join(", ", new TreeSet<>(down)))
        + (pending.isEmpty() ? "" : ", copying: " + String.join(", ", pending.keySet()))
        + (joining.isEmpty() ? "" : ", joining: " + String.join(", ", joining.keySet()));
  }
}
