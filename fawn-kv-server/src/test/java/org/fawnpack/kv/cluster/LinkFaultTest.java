package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * Network faults between live nodes, through a {@link LoopbackProxy} in front of every
 * back-end (child JVMs): links cut for a while and healed, links made slow. The back-ends'
 * ZooKeeper sessions do not go through the proxies, so nobody is marked down: the chains must
 * ride the fault out by resending (sent lists, the retry timer, reconnecting), and every key's
 * history must be linearizable with every key writable afterwards.
 */
class LinkFaultTest extends ChildClusterTest {
  private static final int BACKENDS = 4;
  private static final long FAULT_MS = 2_000;

  @Override
  int backends() {
    return BACKENDS;
  }

  @Override
  boolean proxied() {
    return true;
  }

  @Test
  void cutEveryLinkOfAChainsMiddleMember_thenHeal_writesGetThrough_historyLinearizable()
      throws Exception {
    String middle = chainOfKey0().members().get(1).id();
    HistoryRecorder history = runWith(() -> {
      cluster.proxies.get(middle).cut();
      Thread.sleep(FAULT_MS); // the fault's length: shorter than a session, so nobody is down
      cluster.proxies.get(middle).heal();
    });
    assertTrue(cluster.proxies.get(middle).linksBroken() > 0, "the cut broke links");
    assertTrue(unanswered(history) > 0, "some writes went unanswered during the cut");
  }

  @Test
  void cutEveryLinkOfAChainsHead_thenHeal_historyLinearizable() throws Exception {
    String head = chainOfKey0().head().id();
    HistoryRecorder history = runWith(() -> {
      cluster.proxies.get(head).cut();
      Thread.sleep(FAULT_MS);
      cluster.proxies.get(head).heal();
    });
    assertTrue(cluster.proxies.get(head).linksBroken() > 0, "the cut broke links");
    assertTrue(unanswered(history) > 0, "some operations failed during the cut");
  }

  @Test
  void slowLinksToAChainsTail_historyLinearizable() throws Exception {
    String tail = chainOfKey0().tail().id();
    runWith(() -> {
      cluster.proxies.get(tail).delay(25);
      Thread.sleep(FAULT_MS);
      cluster.proxies.get(tail).delay(0);
    });
    assertTrue(cluster.proxies.get(tail).piecesDelayed() > 0, "traffic was held back");
  }

  private HistoryRecorder runWith(CheckedWorkload.Faults faults) throws Exception {
    long epoch = cluster.currentRing().epoch();
    HistoryRecorder history = new CheckedWorkload(cluster).run(
        List.of(cluster.frontEnd.address()), faults);
    Ring after = cluster.currentRing();
    assertEquals(epoch, after.epoch(), "no ring change: the sessions never went");
    assertEquals(Set.of(), after.down());
    return history;
  }

  /** Operations that failed or got no answer. */
  private static long unanswered(HistoryRecorder history) {
    return history.histories().values().stream().flatMap(List::stream)
        .filter(op -> op.outcome() != Op.Outcome.OK).count();
  }

  private Chain chainOfKey0() throws Exception {
    return cluster.currentRing().chainForKey(CheckedWorkload.key(0));
  }
}
