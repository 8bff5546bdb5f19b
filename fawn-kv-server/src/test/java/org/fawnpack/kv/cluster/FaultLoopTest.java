package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.fawnpack.kv.coord.MemberRequests;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long fault loop ({@code mvn -B -pl fawn-kv-server verify -Pfaults}, not in CI): round after
 * round on one cluster of child JVMs, a fault drawn at random under the checked workload —
 * SIGKILL of a chain's head, middle or tail, or of two members of one chain, each then
 * restarted (it copies its arcs afresh); SIGSTOP past its session, then SIGCONT; a clean
 * restart; a new back-end joining (up to 7); a planned leave; one of the two child front-ends
 * frozen past its session (with a reader asking it by the old map), then let go; a power cut of
 * every back-end (one member's files torn, one's disk gone), restarted; a SIGKILL after which
 * the dead member is removed for good (its arcs merge) — clients are
 * given all three front-ends — and after each round every key's history must
 * be linearizable, every chain whole and every disk hold exactly the files of the arcs its
 * back-end serves. Bounded by {@code -Dfawn.kv.faults.rounds} (default 10) and {@code
 * -Dfawn.kv.faults.minutes} (default 20: no round starts after that);
 * {@code -Dfawn.kv.faults.seed} repeats a run's sequence of faults (not its timing).
 */
@Tag("faults")
class FaultLoopTest extends ChildClusterTest {
  private static final Logger LOG = LoggerFactory.getLogger(FaultLoopTest.class);
  private static final int MAX_BACKENDS = 7;
  /**
   * {@code -Dfawn.kv.faults.plan=N,M,...}: the faults of those numbers in that order, cycled
   * (0-2 SIGKILL of that chain position, 3 two of one chain, 4 clean restart, 5 join, 6 leave,
   * 7 SIGSTOP of a back-end, 8 SIGSTOP of a front-end, 9 a power cut of every back-end, 10
   * SIGKILL and removal for good), to chase one; drawn at random otherwise.
   */
  private static final List<Integer> PLAN = plan(System.getProperty("fawn.kv.faults.plan"));

  private static List<Integer> plan(String text) {
    return text == null || text.isBlank() ? List.of()
        : java.util.Arrays.stream(text.split(",")).map(String::trim).map(Integer::valueOf)
            .toList();
  }

  @Override
  int backends() {
    return 5;
  }

  /** Every back-end answers direct gets: every other round's clients read straight from tails. */
  @Override
  Map<String, String> ownSettings(int i) {
    return Map.of("fawn.kv.tail-read-lease-ms", "1000");
  }

  @Test
  void randomFaultsUnderTheCheckedWorkload_everyRoundLinearizable_clusterWholeAfter()
      throws Exception {
    int rounds = Integer.getInteger("fawn.kv.faults.rounds", 10);
    long minutes = Long.getLong("fawn.kv.faults.minutes", 20);
    long seed = Long.getLong("fawn.kv.faults.seed", System.nanoTime());
    long stopStarting = System.nanoTime() + minutes * 60_000_000_000L;
    Random random = new Random(seed);
    List<String> done = new ArrayList<>();
    Set<String> left = new java.util.HashSet<>();
    MemberRequests leaves = MemberRequests.leaves(cluster.zk, ChildCluster.PATHS);
    MemberRequests removals = MemberRequests.removals(cluster.zk, ChildCluster.PATHS);
    List<java.net.InetSocketAddress> frontEnds = List.of(cluster.frontEnd.address(),
        cluster.addFrontEnd("f1", "127.0.1.1", Map.of()),
        cluster.addFrontEnd("f2", "127.0.1.2", Map.of()));
    int added = 0;
    for (int round = 1; round <= rounds && System.nanoTime() < stopStarting; round++) {
      Ring before = cluster.currentRing();
      Chain chain = before.chainForKey(CheckedWorkload.key(random.nextInt(
          CheckedWorkload.KEYS)));
      int live = before.members().size() - before.down().size();
      int fault = PLAN.isEmpty() ? random.nextInt(11) : PLAN.get((round - 1) % PLAN.size());
      if (fault == 10 && live <= 4) {
        fault = before.members().size() >= MAX_BACKENDS ? 4 : 5; // keep four live members
      }
      if (fault == 5 && before.members().size() >= MAX_BACKENDS) {
        fault = 6;
      }
      if (fault == 6 && live <= 4) {
        fault = 4;
      }
      String what;
      CheckedWorkload.Faults inject;
      // Each round starts where the last left every key: holding its "after-k" write.
      CheckedWorkload workload = new CheckedWorkload(cluster, round == 1 ? null : "after");
      if (round % 2 == 0) {
        workload.readingTails();
      }
      List<FrontEndFreeze> freezes = new ArrayList<>();
      switch (fault) {
        case 0, 1, 2 -> {
          String id = chain.members().get(fault).id();
          what = "SIGKILL of " + id + " (chain position " + fault + "), then restarted";
          inject = () -> killAndBringBack(List.of(id));
        }
        case 3 -> {
          int first = random.nextInt(2);
          List<String> ids = List.of(chain.members().get(first).id(),
              chain.members().get(first + 1).id());
          what = "SIGKILL of " + ids + " (one chain), then both restarted";
          inject = () -> killAndBringBack(ids);
        }
        case 4 -> {
          String id = chain.members().get(random.nextInt(3)).id();
          what = "clean restart of " + id;
          inject = () -> cleanRestart(id);
        }
        case 7 -> {
          String id = chain.members().get(random.nextInt(3)).id();
          what = "SIGSTOP of " + id + " past its session, then SIGCONT";
          inject = () -> freezePastSession(id);
        }
        case 8 -> {
          String name = random.nextBoolean() ? "f1" : "f2";
          what = "SIGSTOP of front-end " + name + " past its session, then SIGCONT";
          inject = () -> {
            freezes.add(FrontEndFreeze.of(cluster, name, workload.history()));
            cluster.awaitSlices(Set.of("f0", "f1", "f2"));
          };
        }
        case 9 -> {
          what = "power cut of every back-end, restarted in a random order";
          inject = () -> LOG.info("power cut: {}", new PowerCut(cluster).cutAndRestore(random));
        }
        case 5 -> {
          String id = "j" + (++added);
          what = "join of new back-end " + id;
          inject = () -> join(id);
        }
        case 6 -> {
          String id = chain.members().get(random.nextInt(3)).id();
          what = "planned leave of " + id;
          left.add(id);
          inject = () -> {
            leaves.request(id);
            cluster.awaitRing(r -> r.isDown(id) && r.leaving().isEmpty()
                && r.pending().isEmpty(), id + " left");
          };
        }
        case 10 -> {
          String id = chain.members().get(random.nextInt(3)).id();
          what = "SIGKILL of " + id + ", then removed for good";
          inject = () -> {
            cluster.kill9(id);
            cluster.awaitRing(r -> r.isDown(id), id + " is down");
            cluster.awaitCopiesServing();
            removals.request(id);
            cluster.awaitRing(r -> r.member(id) == null && r.removing().isEmpty()
                && r.pending().isEmpty(), id + " removed");
          };
        }
        default -> throw new IllegalArgumentException("no fault " + fault + " (0-10)");
      }
      LOG.info("fault round {} of {} (seed {}): {}{}", round, rounds, seed, what,
          round % 2 == 0 ? "; gets straight to the tails" : "");
      done.add(what);
      var history = workload.run(frontEnds, inject);
      for (FrontEndFreeze freeze : freezes) {
        freeze.assertServedMeanwhile(history);
      }
      Ring after = cluster.currentRing();
      assertEquals(left, after.down(), "round " + round + " (" + what + "): " + after);
      assertEquals(Map.of(), after.pending(), "round " + round + " (" + what + "): " + after);
      cluster.awaitArcFilesMatchRing(after);
    }
    LOG.info("fault loop (seed {}) passed {} rounds: {}", seed, done.size(), done);
    assertTrue(!done.isEmpty(), "no round ran");
  }

  private void killAndBringBack(List<String> ids) throws Exception {
    for (String id : ids) {
      cluster.kill9(id);
    }
    for (String id : ids) {
      cluster.awaitRing(r -> r.isDown(id), id + " is down");
    }
    cluster.awaitCopiesServing();
    for (String id : ids) {
      cluster.restart(id, true); // dead already: this starts it again
    }
    for (String id : ids) {
      awaitServing(id);
    }
  }

  private void cleanRestart(String id) throws Exception {
    cluster.restart(id, false);
    awaitServing(id);
  }

  private void freezePastSession(String id) throws Exception {
    NodeProcess node = cluster.backend(id);
    node.signal("STOP");
    try {
      cluster.awaitRing(r -> r.isDown(id), id + " is down");
      cluster.awaitCopiesServing();
    } finally {
      node.signal("CONT");
    }
    awaitServing(id);
  }

  private void join(String id) throws Exception {
    cluster.addBackend(id);
    cluster.awaitRing(r -> r.member(id) != null && r.joining().isEmpty()
        && r.pending().isEmpty(), id + " joined");
  }

  /**
   * Waits until {@code id}'s new process has registered and the ring has it serving at the
   * address it registered (a restart listens on a new port: until the ring says so, requests
   * still go to the old one).
   */
  private void awaitServing(String id) throws Exception {
    org.fawnpack.kv.ring.Member registered = cluster.awaitRegistration(id);
    cluster.awaitRing(r -> !r.isDown(id) && r.pending().isEmpty() && r.servesAnyArc(id)
        && registered.equals(r.member(id)), id + " serves again at " + registered);
  }
}
