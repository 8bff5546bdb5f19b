package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * A back-end (a child JVM) marked down comes back while clients read and write: it must take
 * its old place again, serving only fresh copies of its arcs, never its own files, which missed
 * the writes made while it was away. Two ways back: restarted after SIGKILL (its files are a
 * crashed run's), and let go (SIGCONT) after being frozen (SIGSTOP) past its session's expiry,
 * which to the cluster is a node whose network came back, with its files still open. Each run
 * ends with every key's history linearizable, nobody down or copying, and every back-end's disk
 * holding exactly the arc files of the chains it serves (the replacements it displaced deleted
 * theirs).
 */
class BackendRejoinTest extends ChildClusterTest {
  private static final int BACKENDS = 5;
  @Override
  int backends() {
    return BACKENDS;
  }

  @Test
  void kill9_markedDown_restarted_copiesItsArcsAfresh_servesAgain() throws Exception {
    String away = headOfKey0();
    CheckedWorkload workload = new CheckedWorkload(cluster);
    workload.run(List.of(cluster.frontEnd.address()), () -> {
      cluster.kill9(away);
      awayUntilOthersTookWrites(workload, away);
      cluster.restart(away, true); // the process is dead already: this starts it again
      awaitBack(away);
    });
    Ring after = assertBackInPlace(away);
    String registration = new String(cluster.zk.getData().forPath(
        ChildCluster.PATHS.backend(away)), StandardCharsets.UTF_8);
    assertFalse(registration.endsWith("crashed"), "the registration no longer says crashed: "
        + registration);
    assertCopiedEachArc(after, away);
    String log = Files.readString(Path.of(cluster.backend(away).logFile()));
    assertTrue(log.contains("deleted its old arc files"), "it threw the crashed run's files"
        + " away");
  }

  @Test
  void frozenPastItsSession_markedDown_letGo_dropsItsOpenFiles_copiesAfresh() throws Exception {
    String away = headOfKey0();
    NodeProcess node = cluster.backend(away);
    CheckedWorkload workload = new CheckedWorkload(cluster);
    workload.run(List.of(cluster.frontEnd.address()), () -> {
      node.signal("STOP");
      try {
        awayUntilOthersTookWrites(workload, away);
      } finally {
        node.signal("CONT");
      }
      awaitBack(away);
    });
    Ring after = assertBackInPlace(away);
    assertTrue(node.isAlive(), "the same process serves again");
    assertCopiedEachArc(after, away); // instead of serving the files it had open
  }

  /** Waits until {@code away} is down and its chains take writes without it, then writes. */
  private void awayUntilOthersTookWrites(CheckedWorkload workload, String away)
      throws Exception {
    cluster.awaitRing(r -> r.isDown(away), away + " is down");
    cluster.awaitCopiesServing();
    workload.writeEveryKey("while-" + away + "-away"); // what its own files lack
  }

  private void awaitBack(String away) throws Exception {
    cluster.awaitRing(r -> !r.isDown(away) && r.pending().isEmpty() && r.servesAnyArc(away),
        away + " serves again");
  }

  private Ring assertBackInPlace(String away) throws Exception {
    Ring after = cluster.currentRing();
    assertEquals(Set.of(), after.down(), after.toString());
    assertEquals(Map.of(), after.pending(), after.toString());
    assertTrue(after.servesAnyArc(away), after.toString());
    cluster.awaitArcFilesMatchRing(after);
    return after;
  }

  /** {@code id}'s log names at least one finished copy per arc it serves. */
  private void assertCopiedEachArc(Ring ring, String id) throws IOException {
    String log = Files.readString(Path.of(cluster.backend(id).logFile()));
    long copies = log.lines().filter(l -> l.contains("backend " + id + ": copied arc ")).count();
    int served = ChildCluster.arcsServedBy(ring, id).size();
    assertTrue(copies >= served, id + " logged " + copies + " copies, serves " + served
        + " arcs");
  }

  private String headOfKey0() throws IOException {
    return cluster.currentRing().chainForKey(CheckedWorkload.key(0)).head().id();
  }
}
