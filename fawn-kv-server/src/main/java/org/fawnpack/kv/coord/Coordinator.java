package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.fawnpack.kv.time.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one node that changes the ring: every front-end runs one, ZooKeeper's leader election
 * (Curator's LeaderLatch) makes one of them the leader, and only the leader acts, by
 * compare-and-set on the ring's znode. It makes the first epoch once
 * {@code bootstrapBackends} back-ends have registered; marks a member down in the next epoch
 * when its registration (an ephemeral node) goes, so chains shrink to their live members and
 * name replacements that copy the arcs ({@link Ring#withMembersDown}); and lets the copiers
 * serve in the next epoch once every one has reported its copies ({@link CopyReports}); and
 * follows a member that registers again at another port (restarted) in the next epoch; and
 * brings back a down member that registers again ({@link Ring#withMembersBack}: it copies its
 * arcs before it serves); and lets a new back-end join: the arcs it will change are frozen
 * ({@link Ring#withJoining}), and once it reported them settled it becomes a member
 * ({@link Ring#withJoined}) and copies its arcs; and lets a member asked to leave
 * ({@link MemberRequests#leaves}) hand its arcs over first ({@link Ring#withLeaving}), marking it down
 * once its replacements serve ({@link Ring#withLeft}), and never takes it back; and removes
 * down members for good when asked or once down longer than a grace ({@link Departures}).
 */
public final class Coordinator implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Coordinator.class);

  private final CuratorFramework zk;
  private final RingStore store;
  private final String name;
  private final int bootstrapBackends;
  private final int vnodes;
  private final int replicas;
  private final LeaderLoop loop;
  private final CuratorCache registrations;
  /** What else makes it look again: copy and recovery reports, lost arcs, leave requests. */
  private final List<CuratorCache> triggers;
  private final OrphanRecovery orphanRecovery;
  private final Departures departures;
  /** The default grace for ring members not seen registered: the default session timeout. */
  public static final Duration DEFAULT_GRACE = Duration.ofSeconds(15);
  private final Duration grace;
  /** Back-ends seen registered since this coordinator started. */
  private final Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private volatile long startedNanos;
  private boolean graceCheckScheduled;
  private final CleanStops stops;
  /** Joins and leaves already logged as refused (a virtual node collides, say), once each. */
  private final Set<String> loggedRefusals = new java.util.HashSet<>();

  /**
   * A coordinator whose grace for unseen members is {@link #DEFAULT_GRACE}, and which removes
   * no down member unless asked.
   */
  public Coordinator(CuratorFramework zk, ClusterPaths paths, String name,
      int bootstrapBackends, int vnodes, int replicas) {
    this(zk, paths, name, bootstrapBackends, vnodes, replicas, DEFAULT_GRACE, Duration.ZERO);
  }

  /**
   * {@code grace}: how long after it starts a ring member it has not seen registered may take
   * to register before it is marked down (a whole cluster restarting registers one by one);
   * a member it saw registered is marked down as soon as its registration goes.
   * {@code downGrace}: how long a member may stay down before it is removed for good (zero:
   * only when an operator asks, {@code fawn kv remove}).
   */
  public Coordinator(CuratorFramework zk, ClusterPaths paths, String name,
      int bootstrapBackends, int vnodes, int replicas, Duration grace, Duration downGrace) {
    if (bootstrapBackends < 1) {
      throw new IllegalArgumentException("bootstrap back-ends must be at least 1: "
          + bootstrapBackends);
    }
    Ring.empty(new RingHash(new byte[16]), vnodes, replicas); // the same checks as the ring's
    if (grace.isNegative()) {
      throw new IllegalArgumentException("a grace period is not negative: " + grace);
    }
    this.grace = grace;
    this.zk = zk;
    this.store = new RingStore(zk, paths);
    this.name = name;
    this.bootstrapBackends = bootstrapBackends;
    this.vnodes = vnodes;
    this.replicas = replicas;
    this.loop = new LeaderLoop(zk, paths.coordinator(), name, "coordinator " + name,
        this::check);
    this.registrations = CuratorCache.build(zk, paths.backends());
    this.triggers = List.of(CuratorCache.build(zk, paths.copies()),
        CuratorCache.build(zk, paths.recoveries()), CuratorCache.build(zk, paths.lostArcs()),
        CuratorCache.build(zk, paths.leaves()), CuratorCache.build(zk, paths.removals()));
    this.orphanRecovery = new OrphanRecovery(zk, paths, name);
    this.departures = new Departures(zk, paths, name, downGrace, loop,
        this::publishOrLookAgain, loggedRefusals);
    this.stops = new CleanStops(zk, paths);
  }

  /**
   * The pauses after a failed check ({@code fawn.kv.backoff.zookeeper.*}; 200 ms doubling to
   * a second unset); before {@link #start}.
   */
  public Coordinator retryPauses(Backoff pauses) {
    loop.retryPauses(pauses);
    return this;
  }

  public Coordinator start() throws IOException {
    startedNanos = System.nanoTime();
    registrations.listenable().addListener(CuratorCacheListener.builder()
        .forAll((type, before, after) -> {
          if (after != null && after.getPath().startsWith(store.paths().backends() + "/")) {
            seen.add(after.getPath().substring(store.paths().backends().length() + 1));
          }
          checkSoon();
        }).build());
    for (CuratorCache trigger : triggers) {
      trigger.listenable().addListener(CuratorCacheListener.builder()
          .forAll((type, before, after) -> checkSoon()).build());
    }
    loop.start();
    registrations.start();
    triggers.forEach(CuratorCache::start);
    return this;
  }

  public boolean isLeader() {
    return loop.isLeader();
  }

  private void checkSoon() {
    loop.soon();
  }

  private void check() throws IOException {
    RingHash hash = store.ringHash();
    Optional<RingStore.Versioned> current = store.read(hash);
    List<BackendRegistration.Registered> registrations = registered();
    // A back-end back from a crash serves none of its files: it cannot found a ring either.
    List<Member> live = registrations.stream().filter(r -> !r.crashed())
        .map(BackendRegistration.Registered::member).toList();
    if (current.isEmpty()) {
      if (live.size() < bootstrapBackends) {
        LOG.info("coordinator {}: {} of {} back-ends registered, waiting for the rest before"
            + " the first ring", name, live.size(), bootstrapBackends);
        return;
      }
      Ring first = Ring.at(1, hash, vnodes, replicas, live);
      if (store.publish(first, current)) {
        LOG.info("coordinator {}: published {} with {}", name, first, live);
      }
      return;
    }
    Ring ring = current.get().ring();
    Departures.Asked asked = departures.asked();
    departures.removeLongDown(ring, asked);
    RollCall roll = RollCall.of(name, ring, registrations);
    Set<String> registered = roll.registered();
    List<Member> moved = roll.moved();
    seen.addAll(registered);
    Set<String> gone = new TreeSet<>();
    Set<String> awaited = new TreeSet<>();
    long graceLeftMs = grace.toMillis() - (System.nanoTime() - startedNanos) / 1_000_000;
    Set<String> stoppedCleanly = stops.read(registered);
    for (Member m : ring.members()) {
      if (!ring.isDown(m.id()) && !registered.contains(m.id())) {
        if (stoppedCleanly.contains(m.id())) {
          long leftMs = stops.graceLeftMs(m.id(), grace);
          if (leftMs > 0) {
            awaited.add(m.id());
            if (stops.firstWait(m.id())) { // one look when its grace ends, not one per check
              loop.after(leftMs);
            }
            continue;
          }
          gone.add(m.id());
          continue;
        }
        (seen.contains(m.id()) || graceLeftMs <= 0 ? gone : awaited).add(m.id());
      }
    }
    if (!awaited.isEmpty() && !graceCheckScheduled) {
      graceCheckScheduled = true;
      LOG.info("coordinator {}: waiting up to {} ms for back-ends {} to register before marking"
          + " them down", name, graceLeftMs, awaited);
      loop.after(graceLeftMs);
    }
    if (!gone.isEmpty()) {
      // Its session ended: it is dead or cut off. Its chains shrink to the members that have
      // the data, and name replacements; writes to them are refused until those hold a copy.
      Ring next = ring.withMembersDown(gone);
      if (store.publish(next, current)) {
        stops.forget(gone);
        LOG.warn("coordinator {}: back-ends {} lost their ZooKeeper sessions (or did not"
            + " register within {} ms of this coordinator's start); published {}", name, gone,
            grace.toMillis(), next);
      } else {
        checkSoon(); // the ring changed under us: look again
      }
      return;
    }
    if (!moved.isEmpty()) {
      // Restarted on another port (port 0, or a changed setting): same id, host and files.
      publishOrLookAgain(ring.withAddresses(moved), current, "back-ends " + moved
          + " serve at new ports");
      return;
    }
    // A back-end that left or was removed is not taken back under its id.
    List<Member> back = registrations.stream().map(BackendRegistration.Registered::member)
        .filter(m -> registered.contains(m.id()) && ring.isDown(m.id())
            && !asked.keptOut(m.id())).toList();
    if (!back.isEmpty()) {
      // Down and registered again (restarted, or its network came back): it copies every arc
      // of its old place from the chains before it serves, since its files missed writes.
      publishOrLookAgain(ring.withMembersBack(back), current, "down back-ends " + back
          + " registered again; they copy their arcs");
      return;
    }
    if (!ring.orphans().lastChains().isEmpty() && (recoverOrphans(ring, current)
        || declareLost(ring, current))) {
      return;
    }
    if (!ring.joining().isEmpty()) {
      advanceJoin(ring, current, registered);
      return;
    }
    if (!ring.pending().isEmpty()) {
      promoteCopiers(ring, current);
      return;
    }
    if (!ring.leaving().isEmpty()) {
      publishOrLookAgain(ring.withLeft(), current, "back-ends " + ring.leaving() + " handed"
          + " their arcs over; they have left");
      return;
    }
    if (!ring.removing().isEmpty()) {
      departures.advanceRemoval(ring, current);
      return;
    }
    if (!ring.orphans().lastChains().isEmpty()) {
      return; // no join or leave while arcs wait to be recovered: they could not settle
    }
    if (departures.startLeaves(ring, current, asked)
        || departures.startRemovals(ring, current, asked)) {
      return;
    }
    // One change at a time: a join starts once no member is copying, leaving or being removed.
    List<Member> newcomers = registrations.stream().map(BackendRegistration.Registered::member)
        .filter(m -> registered.contains(m.id()) && ring.member(m.id()) == null
            && !keptOutLogged(asked, m.id())).toList();
    if (!newcomers.isEmpty()) {
      Ring joining;
      try {
        joining = ring.withJoining(newcomers);
      } catch (IllegalArgumentException e) {
        if (loggedRefusals.add("join " + newcomers)) { // once per set, not once per check
          LOG.error("coordinator {}: back-ends {} cannot join: {}", name, newcomers,
              e.getMessage());
        }
        return;
      }
      publishOrLookAgain(joining, current, "back-ends " + newcomers + " registered; the arcs"
          + " they will take are frozen until their writes settle");
    }
  }

  /**
   * Arcs every serving member of which went down (a power cut) are recovered as soon as
   * {@link OrphanRecovery} can name their sources. True when it published.
   */
  private boolean recoverOrphans(Ring ring, Optional<RingStore.Versioned> current)
      throws IOException {
    Map<Long, String> sources = orphanRecovery.sources(ring);
    if (sources.isEmpty()) {
      return false;
    }
    publishOrLookAgain(ring.withRecovered(sources), current, sources.size() + " arcs whose"
        + " members all went down are recovered from the longest of their files, held by "
        + sources.values().stream().distinct().sorted().toList());
    return true;
  }

  /** Marks lost the orphaned arcs an operator declared gone. True when it published. */
  private boolean declareLost(Ring ring, Optional<RingStore.Versioned> current)
      throws IOException {
    List<Long> lost = orphanRecovery.declaredLost(ring);
    if (lost.isEmpty()) {
      return false;
    }
    publishOrLookAgain(ring.withLost(lost), current, "an operator declared " + lost.size()
        + " arcs gone for good; their requests fail by name");
    return true;
  }

  /**
   * A join under way: once every joiner reported that the arcs it froze settled, the joiners
   * become members (their arcs split, they copy theirs); a joiner that went cancels the join.
   */
  private void advanceJoin(Ring ring, Optional<RingStore.Versioned> current,
      Set<String> registered) throws IOException {
    List<String> joiners = ring.joining().stream().map(Member::id).toList();
    if (!registered.containsAll(joiners)) {
      publishOrLookAgain(ring.withJoinCancelled(), current, "a joining back-end of " + joiners
          + " left; the join is cancelled");
      return;
    }
    Map<String, Long> reported = CopyReports.epochs(zk, store.paths());
    if (joiners.stream().allMatch(id -> reported.getOrDefault(id, -1L) == ring.epoch())) {
      publishOrLookAgain(ring.withJoined(), current, "the arcs " + joiners + " froze settled;"
          + " they join and copy their arcs");
    }
  }

  /** True (logged once) when {@code id} was removed: it may not join again under its id. */
  private boolean keptOutLogged(Departures.Asked asked, String id) {
    if (!asked.keptOut(id)) {
      return false;
    }
    if (loggedRefusals.add("rejoin " + id)) {
      LOG.error("coordinator {}: back-end {} registered, but it was removed from the ring; it is"
          + " not taken back under its id: start it with a new --id (and an empty data"
          + " directory)", name, id);
    }
    return true;
  }

  /** Publishes {@code next} over {@code current}, logging {@code why}, or looks again. */
  private void publishOrLookAgain(Ring next, Optional<RingStore.Versioned> current, String why)
      throws IOException {
    if (store.publish(next, current)) {
      LOG.info("coordinator {}: {}; published {}", name, why, next);
      if (!next.leaving().isEmpty() || !next.removing().isEmpty()) {
        checkSoon(); // the leave's next step may be due at once (nothing to copy)
      }
    } else {
      checkSoon(); // the ring changed under us: look again
    }
  }

  /** Publishes the epoch in which the copiers serve, once each reported this epoch's copies. */
  private void promoteCopiers(Ring ring, Optional<RingStore.Versioned> current)
      throws IOException {
    Map<String, Long> reported = CopyReports.epochs(zk, store.paths());
    Set<String> waiting = new TreeSet<>();
    for (String id : ring.pending().keySet()) {
      if (reported.getOrDefault(id, -1L) != ring.epoch()) {
        waiting.add(id);
      }
    }
    if (!waiting.isEmpty()) {
      LOG.debug("coordinator {}: epoch {} waits for the copies of {}", name, ring.epoch(),
          waiting);
      return;
    }
    // All at once: a copier promoted alone could land in the middle of a chain whose tail is
    // still copying, and its predecessor would not have kept the writes it then needs.
    publishOrLookAgain(ring.withPendingDone(ring.pending().keySet()), current,
        ring.pending().keySet() + " hold their copies");
  }

  private List<BackendRegistration.Registered> registered() throws IOException {
    return BackendRegistration.registered(zk, store.paths());
  }

  /** Leaves the election (another front-end's coordinator takes over); closing twice is fine. */
  @Override
  public synchronized void close() throws IOException {
    if (loop.isClosed()) {
      return;
    }
    loop.close();
    registrations.close();
    triggers.forEach(CuratorCache::close);
  }

}
