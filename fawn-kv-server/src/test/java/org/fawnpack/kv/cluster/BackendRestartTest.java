package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * The head of a chain (a child JVM) restarted at once on its data directory, on another port,
 * while clients read and write; the checked workload must then find every key readable and
 * writable and each key's history linearizable. Stopped cleanly (SIGTERM), it keeps its place:
 * the ring follows it to the new port without marking it down, and it serves its own files,
 * catching its successors up on the writes they lacked. Killed (SIGKILL), its files may lack
 * writes it had passed on, so it is fail-stop: it serves none of them, the coordinator marks it
 * down, and then brings it back to copy its arcs afresh. (Before this rule, a restarted head
 * gave new writes numbers its successor had used, and an acknowledged write vanished: this
 * test caught it.)
 */
class BackendRestartTest extends ChildClusterTest {
  private static final int BACKENDS = 4;
  @Override
  int backends() {
    return BACKENDS;
  }

  @Test
  void stopCleanlyAndRestartOnAnotherPort_ringFollows_neverDown_historyLinearizable()
      throws Exception {
    Member restarted = headOfKey0();
    new CheckedWorkload(cluster).run(List.of(cluster.frontEnd.address()), () -> {
      cluster.restart(restarted.id(), false);
      cluster.awaitMovedFrom(restarted);
    });
    Ring after = cluster.currentRing();
    assertEquals(Set.of(), after.down(), "nobody was marked down: " + after);
    assertNotEquals(restarted.port(), after.member(restarted.id()).port(),
        "the ring names the new port");
  }

  @Test
  void kill9AndRestart_failStop_markedDownThenCopiesItsArcsAfresh_historyLinearizable()
      throws Exception {
    Member restarted = headOfKey0();
    long before = cluster.currentRing().epoch();
    new CheckedWorkload(cluster).run(List.of(cluster.frontEnd.address()), () -> {
      cluster.restart(restarted.id(), true);
      // Marked down, brought back at once (it is registered), then serving its copies: three
      // epochs at least; the one that marks it down may last too short a time to be seen.
      cluster.awaitRing(r -> r.epoch() >= before + 3 && !r.isDown(restarted.id())
          && r.pending().isEmpty() && r.servesAnyArc(restarted.id()), restarted.id()
          + " marked down, back and serving again");
    });
    Ring after = cluster.currentRing();
    assertEquals(Set.of(), after.down(), after.toString());
    String log = Files.readString(Path.of(cluster.backend(restarted.id()).logFile()));
    assertTrue(log.contains("did not stop cleanly"), "the restarted back-end said why it"
        + " served nothing");
    assertTrue(log.contains("deleted its old arc files"), "it served only fresh copies");
  }

  private Member headOfKey0() throws IOException {
    return cluster.currentRing().chainForKey(CheckedWorkload.key(0)).head();
  }
}
