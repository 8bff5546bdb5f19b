package org.fawnpack.kv.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.fawnpack.kv.store.KeyRange;

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
  /** Virtual node positions with the sign bit flipped, so signed order is unsigned ring order. */
  private final long[] sortKeys;
  private final Member[] owners;

  private Ring(long epoch, RingHash hash, int vnodes, int replicas, Map<String, Member> members,
      Set<String> down, Map<String, Set<Long>> pending) {
    this.epoch = epoch;
    this.hash = hash;
    this.vnodes = vnodes;
    this.replicas = replicas;
    this.members = Map.copyOf(members);
    for (String id : down) {
      if (!members.containsKey(id)) {
        throw new IllegalArgumentException("back-end " + id + " is marked down but is not in"
            + " the ring (epoch " + epoch + ")");
      }
    }
    this.down = Set.copyOf(down);
    Map<String, Set<Long>> copy = new TreeMap<>();
    pending.forEach((id, arcs) -> {
      if (!arcs.isEmpty()) {
        copy.put(id, Set.copyOf(arcs));
      }
    });
    this.pending = Map.copyOf(copy);
    TreeMap<Long, Member> byPosition = new TreeMap<>();
    for (Member m : new TreeMap<>(members).values()) {
      for (int i = 0; i < vnodes; i++) {
        long key = hash.virtualNodePosition(m.id(), i) ^ Long.MIN_VALUE;
        Member earlier = byPosition.putIfAbsent(key, m);
        if (earlier != null) {
          throw new IllegalArgumentException("virtual node " + m.id() + "#" + i
              + " falls on the same ring position as one of " + earlier.id()
              + "'s: give the back-end another id");
        }
      }
    }
    sortKeys = byPosition.keySet().stream().mapToLong(Long::longValue).toArray();
    owners = byPosition.values().toArray(new Member[0]);
    this.pending.forEach(this::checkPending);
  }

  private void checkPending(String id, Set<Long> arcEnds) {
    if (!members.containsKey(id) || down.contains(id)) {
      throw new IllegalArgumentException("back-end " + id + " is pending but is not a live"
          + " member (epoch " + epoch + ")");
    }
    for (long end : arcEnds) {
      int at = Arrays.binarySearch(sortKeys, end ^ Long.MIN_VALUE);
      if (at < 0 || !liveWalk(at).contains(members.get(id))) {
        throw new IllegalArgumentException("back-end " + id + " is pending on arc "
            + Long.toHexString(end) + ", which is not an arc it belongs to (epoch " + epoch
            + ")");
      }
    }
  }

  /** The ring before any back-end joined (epoch 0). */
  public static Ring empty(RingHash hash, int vnodes, int replicas) {
    if (vnodes < 1 || vnodes > 1024) {
      throw new IllegalArgumentException("virtual nodes per back-end must be 1..1024: " + vnodes);
    }
    if (replicas < 1 || replicas > 16) {
      throw new IllegalArgumentException("replicas must be 1..16: " + replicas);
    }
    return new Ring(0, hash, vnodes, replicas, Map.of(), Set.of(), Map.of());
  }

  /** The ring of epoch {@code epoch} with exactly {@code members}, none down. */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members) {
    return at(epoch, hash, vnodes, replicas, members, Set.of());
  }

  /**
   * The ring of epoch {@code epoch} with exactly {@code members}, of which {@code down} (ids)
   * are down, none pending.
   */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members, Collection<String> down) {
    return at(epoch, hash, vnodes, replicas, members, down, Map.of());
  }

  /**
   * The ring of epoch {@code epoch} with exactly {@code members}, of which {@code down} (ids)
   * are down and {@code pending} (id to arc ends) are copying arcs, as read from its stored
   * form.
   */
  public static Ring at(long epoch, RingHash hash, int vnodes, int replicas,
      Collection<Member> members, Collection<String> down, Map<String, Set<Long>> pending) {
    empty(hash, vnodes, replicas); // the same checks
    if (epoch < 0) {
      throw new IllegalArgumentException("a ring epoch is not negative: " + epoch);
    }
    Map<String, Member> byId = new TreeMap<>();
    for (Member m : members) {
      if (byId.put(m.id(), m) != null) {
        throw new IllegalArgumentException("back-end " + m.id() + " is listed twice");
      }
    }
    return new Ring(epoch, hash, vnodes, replicas, byId, new HashSet<>(down), pending);
  }

  /**
   * The next epoch with {@code member} added: placement only (its arcs are not marked pending;
   * joins by file transfer are not built, see docs/fawn-kv.md).
   */
  public Ring withMember(Member member) {
    if (members.containsKey(member.id())) {
      throw new IllegalArgumentException("back-end " + member.id() + " is already in the ring"
          + " (epoch " + epoch + ")");
    }
    Map<String, Member> next = new TreeMap<>(members);
    next.put(member.id(), member);
    return new Ring(epoch + 1, hash, vnodes, replicas, next, down, Map.of());
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
    return new Ring(epoch + 1, hash, vnodes, replicas, next, down, pending);
  }

  /** The next epoch without back-end {@code id}. */
  public Ring withoutMember(String id) {
    if (!members.containsKey(id)) {
      throw new IllegalArgumentException("back-end " + id + " is not in the ring (epoch "
          + epoch + ")");
    }
    Map<String, Member> next = new TreeMap<>(members);
    next.remove(id);
    Set<String> stillDown = new HashSet<>(down);
    stillDown.remove(id);
    return new Ring(epoch + 1, hash, vnodes, replicas, next, stillDown, Map.of());
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
    return withDown(nowDown);
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
    return new Ring(epoch, hash, vnodes, replicas, next, down, pending).withDown(stillDown);
  }

  /**
   * The next epoch with exactly {@code nextDown} down. Pending: whoever is in an arc's live walk
   * now but did not serve it before (a member still copying stays pending; a newcomer starts).
   */
  private Ring withDown(Set<String> nextDown) {
    Ring unfilled = new Ring(epoch + 1, hash, vnodes, replicas, members, nextDown, Map.of());
    Map<String, Set<Long>> nextPending = new TreeMap<>();
    for (int i = 0; i < owners.length; i++) {
      List<Member> before = chainAt(i).members();
      for (Member m : unfilled.liveWalk(i)) {
        if (!before.contains(m)) {
          nextPending.computeIfAbsent(m.id(), k -> new HashSet<>())
              .add(sortKeys[i] ^ Long.MIN_VALUE);
        }
      }
    }
    return new Ring(epoch + 1, hash, vnodes, replicas, members, nextDown, nextPending);
  }

  /** True when {@code id} serves some arc (is a member of its chain, not only copying it). */
  public boolean servesAnyArc(String id) {
    Member m = members.get(id);
    if (m == null || down.contains(id)) {
      return false;
    }
    for (int i = 0; i < owners.length; i++) {
      if (chainAt(i).members().contains(m)) {
        return true;
      }
    }
    return false;
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
    return new Ring(epoch + 1, hash, vnodes, replicas, members, down, still);
  }

  /** Member id to the ends of the arcs it is copying, for every pending member. */
  public Map<String, Set<Long>> pending() {
    return pending;
  }

  /** The ends of the arcs {@code id} is copying (empty when none). */
  public Set<Long> pendingArcsOf(String id) {
    return pending.getOrDefault(id, Set.of());
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
    if (owners.length == 0) {
      throw new IllegalStateException("the ring has no back-ends (epoch " + epoch + ")");
    }
    int found = Arrays.binarySearch(sortKeys, position ^ Long.MIN_VALUE);
    int owner = found >= 0 ? found : -found - 1;
    return chainAt(owner == owners.length ? 0 : owner);
  }

  /** Every arc's chain, in ring order: each is one FAWN-DS file on each of its members. */
  public List<Chain> chains() {
    List<Chain> chains = new ArrayList<>(owners.length);
    for (int i = 0; i < owners.length; i++) {
      chains.add(chainAt(i));
    }
    return chains;
  }

  private Chain chainAt(int owner) {
    int n = owners.length;
    long end = sortKeys[owner] ^ Long.MIN_VALUE;
    long start = sortKeys[(owner + n - 1) % n] ^ Long.MIN_VALUE; // itself when alone: whole ring
    List<Member> serving = new ArrayList<>(replicas);
    List<Member> copying = new ArrayList<>();
    for (Member m : liveWalk(owner)) {
      (pendingArcsOf(m.id()).contains(end) ? copying : serving).add(m);
    }
    return new Chain(new KeyRange(start, end), serving, copying, replicas);
  }

  /**
   * The first {@code replicas} live members clockwise from virtual node {@code owner}, each on
   * a host not seen before in the walk; a down member is skipped but keeps its host out, so the
   * order of hosts never depends on who is down.
   */
  private List<Member> liveWalk(int owner) {
    int n = owners.length;
    List<Member> chain = new ArrayList<>(replicas);
    Set<String> hosts = new HashSet<>();
    for (int step = 0; step < n && chain.size() < replicas; step++) {
      Member m = owners[(owner + step) % n];
      if (hosts.add(m.host()) && !down.contains(m.id())) {
        chain.add(m);
      }
    }
    return chain;
  }

  @Override
  public String toString() {
    return "ring epoch " + epoch + ": " + members.size() + " back-ends x " + vnodes
        + " virtual nodes, " + replicas + " replicas" + (down.isEmpty() ? ""
            : ", down: " + String.join(", ", new java.util.TreeSet<>(down)))
        + (pending.isEmpty() ? "" : ", copying: " + String.join(", ", pending.keySet()));
  }
}
