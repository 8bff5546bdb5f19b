package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A power cut of the whole store under the checked workload: every back-end (child JVMs)
 * SIGKILLed at once, so every chain loses every member, then all restarted in a random order,
 * one of them with its data directory gone (a replaced card). Each arc must be recovered from
 * the longest file of its last chain and copied afresh by the rest: every key's history
 * linearizable (no acknowledged write lost, nothing served from a divergent file), every chain
 * whole again and every disk holding exactly the files of the arcs its back-end serves.
 */
class PowerCutTest extends ChildClusterTest {
  private static final Logger LOG = LoggerFactory.getLogger(PowerCutTest.class);

  @Override
  int backends() {
    return 5;
  }

  @Test
  void everyBackendKilled_restartedInRandomOrder_oneDiskGone_everyArcRecovered() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<String> ids = new ArrayList<>(cluster.currentRing().members().stream()
        .map(Member::id).sorted().toList());
    CheckedWorkload workload = new CheckedWorkload(cluster);
    String[] wiped = {null};
    workload.run(List.of(cluster.frontEnd.address()), () -> {
      for (String id : ids) {
        cluster.kill9(id);
      }
      Ring dark = cluster.awaitRing(r -> r.down().size() == ids.size(), "every back-end down");
      assertTrue(!dark.orphans().lastChains().isEmpty(), "no arc orphaned: " + dark);
      wiped[0] = wipeable(dark, random);
      String torn = null;
      long most = -1;
      for (String id : ids) { // the one with the most writes it may lose
        long bytes = id.equals(wiped[0]) ? -1 : unforcedBytes(dark, id);
        if (bytes > most) {
          torn = id;
          most = bytes;
        }
      }
      int cut = tearUnforcedTails(dark, torn);
      Collections.shuffle(ids, random);
      LOG.info("power cut (seed {}): {}; {} lost the second half of {} files;"
          + " restarting in the order {}, {} without its disk", seed, dark, torn, cut, ids,
          wiped[0]);
      for (String id : ids) {
        if (id.equals(wiped[0])) {
          deleteTree(cluster.dataOf(id));
        }
        cluster.restart(id, true); // dead already: this starts it again
        Thread.sleep(random.nextInt(400));
      }
      cluster.awaitRing(r -> r.down().isEmpty() && r.pending().isEmpty()
          && r.orphans().isEmpty(), "every arc recovered and its chain whole");
    });
    Ring after = cluster.currentRing();
    assertEquals(Map.of(), after.pending(), after.toString());
    cluster.awaitArcFilesMatchRing(after);
  }

  /**
   * A back-end whose disk may go without losing an arc: none is the only member of an
   * orphaned arc's last chain (then that arc's data would be gone with it); null if none is.
   */
  private static String wipeable(Ring dark, Random random) {
    List<String> candidates = new ArrayList<>(dark.members().stream().map(Member::id)
        .filter(id -> dark.orphans().lastChains().values().stream()
            .noneMatch(last -> last.equals(List.of(id))))
        .sorted().toList());
    return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
  }

  /** The bytes of {@code id}'s files in orphaned arcs whose last chain it is in but not ends. */
  private long unforcedBytes(Ring dark, String id) throws java.io.IOException {
    long bytes = 0;
    for (Map.Entry<Long, List<String>> orphan : dark.orphans().lastChains().entrySet()) {
      List<String> last = orphan.getValue();
      Path log = org.fawnpack.kv.backend.Backend.arcFileOf(cluster.dataOf(id), orphan.getKey());
      if (last.contains(id) && !last.get(last.size() - 1).equals(id) && Files.exists(log)) {
        bytes += Files.size(log);
      }
    }
    return bytes;
  }

  /**
   * A member whose files lost their ends: what a power cut does to a member that is not its
   * chain's tail under {@code fawn.kv.durability=tail} (only the tail forces before a write is
   * acknowledged), or a damaged card. Each file of {@code id}'s in an orphaned arc whose last
   * chain it is in but does not end is cut to half (its index checkpoint dropped); the arc must
   * still be recovered with every acknowledged write, from a longer file (choosing the shortest
   * fails this test). Returns how many files were cut.
   */
  private int tearUnforcedTails(Ring dark, String id) throws java.io.IOException {
    int cut = 0;
    for (Map.Entry<Long, List<String>> orphan : dark.orphans().lastChains().entrySet()) {
      List<String> last = orphan.getValue();
      if (!last.contains(id) || last.get(last.size() - 1).equals(id)) {
        continue;
      }
      Path log = org.fawnpack.kv.backend.Backend.arcFileOf(cluster.dataOf(id), orphan.getKey());
      if (Files.exists(log) && Files.size(log) > 1024) {
        try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(log,
            java.nio.file.StandardOpenOption.WRITE)) {
          f.truncate(Files.size(log) / 2);
        }
        Files.deleteIfExists(org.fawnpack.kv.store.LogSnapshot.checkpointOf(log));
        cut++;
      }
    }
    return cut;
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
