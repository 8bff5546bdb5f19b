package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * Clients that send their gets straight to the tails (by rings they follow in ZooKeeper
 * themselves) while a tail is frozen past its session or killed: each key's history, with a
 * final read of every key, must be linearizable. A tail frozen past its session resumes on its
 * old ring with gets queued on its sockets; its read lease ran out meanwhile, so it refuses
 * them and the clients ask a front-end (see backend.TailLease).
 */
class TailReadFaultTest extends ChildClusterTest {
  /**
   * Traffic before the fault, on top of the workload's own second: a dead tail's keys stall
   * the clients for a session timeout, so the run needs healthy time to be worth checking.
   */
  private static final long HEALTHY_MS = 2_000;
  /** Gets a run must have sent straight to tails to have tested that path at all. */
  private static final long MIN_TAIL_ANSWERS = 20;

  @Override
  int backends() {
    return 4;
  }

  @Override
  Map<String, String> ownSettings(int i) {
    return Map.of("fawn.kv.tail-read-lease-ms", "1000");
  }

  @Test
  void sigstopOfATailPastItsSession_directReads_historyLinearizable() throws Exception {
    CheckedWorkload workload = new CheckedWorkload(cluster).readingTails();
    workload.run(List.of(cluster.frontEnd.address()), () -> {
      Thread.sleep(HEALTHY_MS);
      Ring before = cluster.currentRing();
      String tail = before.chainForKey(CheckedWorkload.key(0)).tail().id();
      NodeProcess node = cluster.backend(tail);
      node.signal("STOP");
      try {
        cluster.awaitRing(r -> r.isDown(tail), tail + " is down");
        cluster.awaitCopiesServing();
        workload.writeEveryKey("while-" + tail + "-frozen");
      } finally {
        node.signal("CONT");
      }
    });
    assertTrue(workload.tailAnswers() > MIN_TAIL_ANSWERS, "gets the tails answered straight: "
        + workload.tailAnswers());
  }

  @Test
  void kill9OfATail_directReads_historyLinearizable() throws Exception {
    CheckedWorkload workload = new CheckedWorkload(cluster).readingTails();
    workload.run(List.of(cluster.frontEnd.address()), () -> {
      Thread.sleep(HEALTHY_MS);
      Ring before = cluster.currentRing();
      cluster.kill9(before.chainForKey(CheckedWorkload.key(0)).tail().id());
      cluster.awaitEpochAbove(before.epoch());
    });
    assertTrue(workload.tailAnswers() > MIN_TAIL_ANSWERS, "gets the tails answered straight: "
        + workload.tailAnswers());
  }
}
