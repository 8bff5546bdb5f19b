package org.fawnpack.kv.coord;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's part for members that go for good: planned leaves of live members
 * ({@link MemberRequests#leaves}) and removals of down ones ({@link MemberRequests#removals}, asked by an
 * operator or made once a member has been down longer than {@code fawn.kv.down-grace}). A
 * removal takes two epochs ({@link Ring#withRemoving}, then {@link Ring#withRemoved} once the
 * head of every frozen arc reported that its writes settled). Neither a leaver nor a removed
 * back-end is taken back under its id. Runs on the leader's thread only.
 */
final class Departures {
  private static final Logger LOG = LoggerFactory.getLogger(Departures.class);

  /** Publishes the next epoch over the current one, or makes the leader look again. */
  interface Publisher {
    void publish(Ring next, Optional<RingStore.Versioned> current, String why)
        throws IOException;
  }

  private final CuratorFramework zk;
  private final ClusterPaths paths;
  private final String name;
  private final MemberRequests leaves;
  private final MemberRequests removals;
  /** Zero: never remove a down member without an operator's request. */
  private final Duration downGrace;
  private final LeaderLoop loop;
  private final Publisher publisher;
  /** Refusals already logged, once each. */
  private final Set<String> loggedRefusals;
  /** When this leader first saw each member down (a new leader starts the count again). */
  private final Map<String, Long> downSinceNanos = new HashMap<>();

  Departures(CuratorFramework zk, ClusterPaths paths, String name, Duration downGrace,
      LeaderLoop loop, Publisher publisher, Set<String> loggedRefusals) {
    if (downGrace.isNegative()) {
      throw new IllegalArgumentException("a down grace is not negative: " + downGrace);
    }
    this.zk = zk;
    this.paths = paths;
    this.name = name;
    this.leaves = MemberRequests.leaves(zk, paths);
    this.removals = MemberRequests.removals(zk, paths);
    this.downGrace = downGrace;
    this.loop = loop;
    this.publisher = publisher;
    this.loggedRefusals = loggedRefusals;
  }

  /** The requests of both kinds, read once per look. */
  record Asked(Map<String, String> leaves, Map<String, String> removals) {
    /** A back-end that left or was removed is not taken back under its id. */
    boolean keptOut(String id) {
      return MemberRequests.granted(leaves, id) || MemberRequests.granted(removals, id);
    }
  }

  Asked asked() throws IOException {
    return new Asked(leaves.all(), removals.all());
  }

  /**
   * Asks for the removal of every member down longer than the grace (none when it is zero);
   * schedules a look for when the next one's grace ends.
   */
  void removeLongDown(Ring ring, Asked asked) throws IOException {
    downSinceNanos.keySet().retainAll(ring.down());
    if (downGrace.isZero()) {
      return;
    }
    long now = System.nanoTime();
    long soonestMs = Long.MAX_VALUE;
    for (String id : ring.down()) {
      if (asked.removals().containsKey(id)) {
        continue; // asked already (a member that left is removed after the grace too)
      }
      long since = downSinceNanos.computeIfAbsent(id, k -> now);
      long leftMs = downGrace.toMillis() - (now - since) / 1_000_000;
      if (leftMs <= 0) {
        LOG.warn("coordinator {}: back-end {} has been down longer than fawn.kv.down-grace"
            + " ({} ms); asking for its removal", name, id, downGrace.toMillis());
        removals.request(id);
      } else {
        soonestMs = Math.min(soonestMs, leftMs);
      }
    }
    if (soonestMs != Long.MAX_VALUE) {
      loop.after(soonestMs);
    }
  }

  /**
   * Starts the leaves live members asked for (the ring is settled); refuses, in its znode, one
   * that cannot be made. True when it published.
   */
  boolean startLeaves(Ring ring, Optional<RingStore.Versioned> current, Asked asked)
      throws IOException {
    List<String> leaving = new ArrayList<>();
    for (Map.Entry<String, String> request : asked.leaves().entrySet()) {
      String id = request.getKey();
      if (MemberRequests.refused(request.getValue()) || ring.isDown(id)) {
        continue; // answered already, or left (or down) already
      }
      if (ring.member(id) == null) {
        refuse(id, "leave", "back-end " + id + " is not in the ring (epoch " + ring.epoch()
            + ")", leaves::refuse);
        continue;
      }
      leaving.add(id);
    }
    if (leaving.isEmpty()) {
      return false;
    }
    Ring next;
    try {
      next = ring.withLeaving(leaving);
    } catch (IllegalArgumentException e) {
      for (String id : leaving) {
        refuse(id, "leave", e.getMessage(), leaves::refuse);
      }
      return false;
    }
    publisher.publish(next, current, "back-ends " + leaving + " asked to leave; their"
        + " replacements copy their arcs while they serve");
    return true;
  }

  /**
   * Starts the removals asked for (the ring is settled): the arcs the removed members bound
   * freeze; one that cannot be made is refused in its znode. A request for a back-end not in
   * the ring is one carried out already (the command checks membership before it asks).
   * True when it published.
   */
  boolean startRemovals(Ring ring, Optional<RingStore.Versioned> current, Asked asked)
      throws IOException {
    List<String> removing = new ArrayList<>();
    for (Map.Entry<String, String> request : asked.removals().entrySet()) {
      String id = request.getKey();
      if (MemberRequests.refused(request.getValue()) || ring.member(id) == null) {
        continue;
      }
      if (!ring.isDown(id)) {
        continue; // live again (or not yet down): removed once it is down
      }
      removing.add(id);
    }
    if (removing.isEmpty()) {
      return false;
    }
    Ring next;
    try {
      next = ring.withRemoving(removing);
    } catch (IllegalArgumentException e) {
      for (String id : removing) {
        refuse(id, "removal", e.getMessage(), removals::refuse);
      }
      return false;
    }
    publisher.publish(next, current, "back-ends " + removing + " are removed for good; the "
        + next.frozen().size() + " arcs they bound and their successors are frozen until"
        + " their writes settle");
    return true;
  }

  /**
   * A removal under way: once the head of every frozen arc reported that its writes settled
   * in this epoch, the removed members go and the arcs merge; an arc orphaned meanwhile (every
   * member down) cancels it until the ring is settled again.
   */
  void advanceRemoval(Ring ring, Optional<RingStore.Versioned> current) throws IOException {
    if (!ring.orphans().lastChains().isEmpty() || !ring.orphans().sources().isEmpty()) {
      publisher.publish(ring.withRemovalCancelled(), current, "arcs lost every member during"
          + " the removal of " + ring.removing() + "; it is cancelled until they recover");
      return;
    }
    Set<String> heads = new TreeSet<>();
    for (long end : ring.frozen()) {
      Chain chain = ring.chainFor(end);
      heads.add(chain.head().id());
    }
    Map<String, Long> reported = CopyReports.epochs(zk, paths);
    Set<String> waiting = new TreeSet<>();
    for (String id : heads) {
      if (reported.getOrDefault(id, -1L) != ring.epoch()) {
        waiting.add(id);
      }
    }
    if (!waiting.isEmpty()) {
      LOG.debug("coordinator {}: the removal of {} waits for {} to report their frozen arcs"
          + " settled (epoch {})", name, ring.removing(), waiting, ring.epoch());
      return;
    }
    publisher.publish(ring.withRemoved(), current, "the arcs frozen for the removal of "
        + ring.removing() + " settled; they merge, and the removed members are gone");
  }

  private interface Refusal {
    void refuse(String id, String why) throws IOException;
  }

  private void refuse(String id, String what, String why, Refusal refusal) throws IOException {
    refusal.refuse(id, why);
    if (loggedRefusals.add(what + " " + id + why)) {
      LOG.error("coordinator {}: refused the {} of {}: {}", name, what, id, why);
    }
  }
}
