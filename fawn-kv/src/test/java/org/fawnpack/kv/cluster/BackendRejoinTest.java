package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

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
class BackendRejoinTest {
  private static final int BACKENDS = 5;
  @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the nodes' logs stay when it fails
  Path dir;

  private ChildCluster cluster;

  @BeforeEach
  void startCluster() throws Exception {
    cluster = new ChildCluster(dir, BACKENDS);
  }

  @AfterEach
  void stopCluster() throws IOException {
    cluster.close();
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
    awaitArcFilesMatchRing(after);
    return after;
  }

  /** Every back-end's disk holds the files of exactly the arcs it serves (within the wait). */
  private void awaitArcFilesMatchRing(Ring ring) throws Exception {
    long deadline = System.nanoTime() + ChildCluster.WAIT.toNanos();
    for (Member m : ring.members()) {
      Set<String> expected = new TreeSet<>();
      for (long end : arcsServedBy(ring, m.id())) {
        expected.add(String.format("arc-%016x.fds", end));
      }
      while (!arcFilesOf(m.id()).equals(expected)) {
        assertTrue(System.nanoTime() < deadline, m.id() + " holds " + arcFilesOf(m.id())
            + ", serves " + expected + " in " + ring);
        Thread.sleep(50);
      }
    }
  }

  private Set<String> arcFilesOf(String id) throws IOException {
    Set<String> names = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(cluster.dataOf(id),
        "arc-*.fds")) {
      files.forEach(f -> names.add(f.getFileName().toString()));
    }
    return names;
  }

  private static Set<Long> arcsServedBy(Ring ring, String id) {
    Set<Long> ends = new TreeSet<>();
    for (Chain chain : ring.chains()) {
      if (chain.members().stream().anyMatch(m -> m.id().equals(id))) {
        ends.add(chain.range().endInclusive());
      }
    }
    return ends;
  }

  /** {@code id}'s log names at least one finished copy per arc it serves. */
  private void assertCopiedEachArc(Ring ring, String id) throws IOException {
    String log = Files.readString(Path.of(cluster.backend(id).logFile()));
    long copies = log.lines().filter(l -> l.contains("backend " + id + ": copied arc ")).count();
    int served = arcsServedBy(ring, id).size();
    assertTrue(copies >= served, id + " logged " + copies + " copies, serves " + served
        + " arcs");
  }

  private String headOfKey0() throws IOException {
    return cluster.currentRing().chainForKey(CheckedWorkload.key(0)).head().id();
  }
}
