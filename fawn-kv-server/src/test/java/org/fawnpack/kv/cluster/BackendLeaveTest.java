package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * A planned leave under the checked workload, asked for with {@code fawn kv leave} in a child
 * JVM: the head of a chain hands its arcs over while the clients write. Every history must be
 * linearizable, no request refused (its chains never go short, unlike a failure), only the
 * leaver's arcs copied, once each, and afterwards the leaver holds no arc file and is not
 * taken back although it stays registered.
 */
class BackendLeaveTest extends ChildClusterTest {
  @Override
  int backends() {
    return 5;
  }

  @Test
  void leave_headOfAChain_underWrites_nothingRefused_onlyItsArcsCopied_notTakenBack()
      throws Exception {
    Ring before = cluster.currentRing();
    String leaver = before.chainForKey(CheckedWorkload.key(0)).head().id();
    int itsArcs = ChildCluster.arcsServedBy(before, leaver).size();
    AtomicReference<Integer> exit = new AtomicReference<>();
    long refusedBefore = cluster.frontEnd.metrics().getRefused();
    HistoryRecorder history = new CheckedWorkload(cluster).run(
        List.of(cluster.frontEnd.address()), () -> {
          NodeProcess leave = NodeProcess.command("leave", dir.resolve("leave"),
              cluster.settings, List.of("leave", "--id", leaver, "--timeout-s", "60"));
          exit.set(leave.awaitExit(90));
        });
    Path leaveLog = dir.resolve("leave").resolve("leave.log");
    assertEquals(0, exit.get(), Files.readString(leaveLog));
    assertTrue(Files.readString(leaveLog).contains("has left"), Files.readString(leaveLog));

    // Clients retry refused writes, so the front-end's count is the one to look at.
    assertEquals(0, cluster.frontEnd.metrics().getRefused() - refusedBefore,
        "requests the chains refused during the leave (a short chain refuses writes)");
    assertTrue(history.histories().values().stream().flatMap(List::stream)
        .anyMatch(op -> op.kind() == Op.Kind.PUT && op.outcome() == Op.Outcome.OK),
        "the clients wrote");

    Ring after = cluster.currentRing();
    assertTrue(after.isDown(leaver) && after.leaving().isEmpty(), after.toString());
    assertEquals(Map.of(), after.pending(), after.toString());
    cluster.awaitArcFilesMatchRing(after); // the leaver's disk holds no arc file
    assertEquals(Set.of(), cluster.arcFilesOf(leaver), leaver + " deleted its arc files");
    long copies = 0;
    for (Member m : after.members()) {
      copies += Files.readString(Path.of(cluster.backend(m.id()).logFile())).lines()
          .filter(l -> l.contains(": copied arc ")).count();
    }
    assertEquals(itsArcs, copies, "one copy per arc the leaver served, no other");
    assertTrue(cluster.backend(leaver).isAlive(), "the leaver still runs (the operator stops it)");
    // Restarted, it registers again: a down member that does is taken back, one that left not.
    cluster.restart(leaver, false);
    long until = System.nanoTime() + 3_000_000_000L;
    while (System.nanoTime() < until) {
      assertTrue(cluster.currentRing().isDown(leaver), "a back-end that left was taken back");
      Thread.sleep(100); // watching for a change that must not come
    }
  }
}
