package org.fawnpack.kv.ring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.fawnpack.kv.store.KeyRange;

/**
 * Where a set of back-ends' virtual nodes fall on the ring, and the walk that makes each arc's
 * chain: the geometry of one epoch, apart from who is copying what.
 */
final class Placement {
  /** Virtual node positions with the sign bit flipped, so signed order is unsigned ring order. */
  private final long[] sortKeys;
  private final Member[] owners;
  private final int replicas;
  private final Set<String> down;
  private final Set<String> leaving;

  Placement(RingHash hash, int vnodes, int replicas, Map<String, Member> members,
      Set<String> down) {
    this(hash, vnodes, replicas, members, down, Set.of());
  }

  /** {@code leaving}: live members handing their arcs over, walked past as if down. */
  Placement(RingHash hash, int vnodes, int replicas, Map<String, Member> members,
      Set<String> down, Set<String> leaving) {
    this.replicas = replicas;
    this.down = down;
    this.leaving = leaving;
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
  }

  /** How many arcs (virtual nodes). */
  int arcs() {
    return owners.length;
  }

  /** The index of the arc ending exactly at {@code end}, or -1. */
  int arcEndingAt(long end) {
    int at = Arrays.binarySearch(sortKeys, end ^ Long.MIN_VALUE);
    return at < 0 ? -1 : at;
  }

  /** The index of the arc holding {@code position}; the ring must have arcs. */
  int arcHolding(long position) {
    int found = Arrays.binarySearch(sortKeys, position ^ Long.MIN_VALUE);
    int owner = found >= 0 ? found : -found - 1;
    return owner == owners.length ? 0 : owner;
  }

  long end(int arc) {
    return sortKeys[arc] ^ Long.MIN_VALUE;
  }

  /** The range of arc {@code arc}: from its predecessor (exclusive) to its end. */
  KeyRange range(int arc) {
    int n = owners.length;
    long start = sortKeys[(arc + n - 1) % n] ^ Long.MIN_VALUE; // itself when alone: whole ring
    return new KeyRange(start, end(arc));
  }

  /**
   * The ends of this placement's arcs that {@code after} (this one with {@code joiners} added)
   * cuts, or whose walk a joiner enters: the arcs a join changes.
   */
  Set<Long> arcsChangedBy(Map<String, Member> joiners, Placement after) {
    Set<Long> changed = new HashSet<>();
    for (int i = 0; i < after.arcs(); i++) {
      int before = arcHolding(after.end(i));
      boolean cut = !after.range(i).equals(range(before));
      if (cut || after.liveWalk(i).stream().anyMatch(m -> joiners.containsKey(m.id()))) {
        changed.add(end(before));
      }
    }
    return Set.copyOf(changed);
  }

  /**
   * The ends of this placement's arcs that {@code after} (this one without some members' virtual
   * nodes) merges: each arc whose end is gone, and the arc that takes it in.
   */
  Set<Long> arcsMergedBy(Placement after) {
    Set<Long> merged = new HashSet<>();
    for (int i = 0; i < arcs(); i++) {
      if (after.arcEndingAt(end(i)) < 0) {
        merged.add(end(i));
        merged.add(after.end(after.arcHolding(end(i))));
      }
    }
    return Set.copyOf(merged);
  }

  /**
   * The first {@code replicas} live members clockwise from virtual node {@code arc}, each in a
   * failure domain and on a host not seen before in the walk; then, while the chain is short
   * (fewer domains than replicas), members on hosts not seen before, in walk order. A down
   * member is skipped but keeps its host and domain out, so the order of hosts never depends
   * on who is down. Members without a domain of their own are their host's domain: the walk
   * is then by host alone.
   */
  List<Member> liveWalk(int arc) {
    return walk(arc, true);
  }

  /**
   * As {@link #liveWalk}, but with the leaving members still in it: the chain they hand over
   * (the same hosts in the same order, a leaver where the live walk has its successor's).
   */
  List<Member> walkWithLeavers(int arc) {
    return walk(arc, false);
  }

  private List<Member> walk(int arc, boolean skipLeaving) {
    int n = owners.length;
    List<Member> chain = new ArrayList<>(replicas);
    Set<String> hosts = new HashSet<>();
    Set<String> domains = new HashSet<>();
    for (int step = 0; step < n && chain.size() < replicas; step++) {
      Member m = owners[(arc + step) % n];
      if (!hosts.contains(m.host()) && domains.add(m.domain())) {
        hosts.add(m.host());
        if (serves(m, skipLeaving)) {
          chain.add(m);
        }
      }
    }
    // Fewer domains than replicas: a shared domain beats a short chain.
    for (int step = 0; step < n && chain.size() < replicas; step++) {
      Member m = owners[(arc + step) % n];
      if (hosts.add(m.host()) && serves(m, skipLeaving)) {
        chain.add(m);
      }
    }
    return chain;
  }

  private boolean serves(Member m, boolean skipLeaving) {
    return !down.contains(m.id()) && !(skipLeaving && leaving.contains(m.id()));
  }

  /**
   * The chain of arc {@code arc}: its walk's members serving, then those copying it (pending
   * there). While members leave, the walk still holding them comes first, then the live walk's
   * newcomers (their replacements).
   */
  Chain chain(int arc, Map<String, Set<Long>> pending, Set<Long> frozen) {
    long end = end(arc);
    List<Member> walk = new ArrayList<>(walkWithLeavers(arc));
    for (Member m : liveWalk(arc)) {
      if (!walk.contains(m)) {
        walk.add(m);
      }
    }
    List<Member> serving = new ArrayList<>(replicas);
    List<Member> copying = new ArrayList<>();
    for (Member m : walk) {
      (pending.getOrDefault(m.id(), Set.of()).contains(end) ? copying : serving).add(m);
    }
    return new Chain(range(arc), serving, copying, replicas, frozen.contains(end));
  }
}
