package org.fawnpack.kv.cluster;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A power cut of every live back-end of a {@link ChildCluster} at once (SIGKILL), then all
 * restarted in a random order: one member's files lose their second halves (what a power cut
 * does to writes a member had not forced, under {@code fawn.kv.durability=tail}, or a damaged
 * card) and another's data directory is gone (a replaced card), chosen so that every arc keeps
 * a whole copy. Returns once every arc is recovered and its chain whole.
 */
final class PowerCut {
  private static final Logger LOG = LoggerFactory.getLogger(PowerCut.class);

  private final ChildCluster cluster;

  PowerCut(ChildCluster cluster) {
    this.cluster = cluster;
  }

  /** Cuts and restores; a description of what was done, for the test's log. */
  String cutAndRestore(Random random) throws Exception {
    Ring before = cluster.currentRing();
    List<String> ids = new ArrayList<>(before.members().stream().map(Member::id)
        .filter(id -> !before.isDown(id)).sorted().toList());
    for (String id : ids) {
      cluster.kill9(id);
    }
    Ring dark = cluster.awaitRing(r -> ids.stream().allMatch(r::isDown), "every back-end down");
    assertTrue(!dark.orphans().lastChains().isEmpty(), "no arc orphaned: " + dark);
    String wiped = wipeable(dark, random);
    String torn = null;
    long most = -1;
    for (String id : ids) { // the one with the most writes to lose
      long bytes = id.equals(wiped) ? -1 : notLastBytes(dark, id, wiped);
      if (bytes > most) {
        torn = id;
        most = bytes;
      }
    }
    int cut = tearTails(dark, torn, wiped);
    Collections.shuffle(ids, random);
    String what = dark + "; " + torn + " lost the second half of " + cut + " files; restarted"
        + " in the order " + ids + ", " + wiped + " without its disk";
    LOG.info("power cut: {}", what);
    for (String id : ids) {
      if (id.equals(wiped)) {
        deleteTree(cluster.dataOf(id));
      }
      cluster.restart(id, true); // dead already: this starts it again
      Thread.sleep(random.nextInt(400));
    }
    long lastStarted = System.nanoTime();
    cluster.awaitRing(r -> ids.stream().noneMatch(r::isDown) && r.pending().isEmpty()
        && r.orphans().isEmpty(), "every arc recovered and its chain whole");
    return what + "; every arc served by a whole chain " + (System.nanoTime() - lastStarted)
        / 1_000_000 + " ms after the last back-end was started";
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

  /** The bytes of {@code id}'s files {@link #tearTails} would cut. */
  private long notLastBytes(Ring dark, String id, String wiped) throws java.io.IOException {
    long bytes = 0;
    for (Map.Entry<Long, List<String>> orphan : dark.orphans().lastChains().entrySet()) {
      Path log = org.fawnpack.kv.backend.Backend.arcFileOf(cluster.dataOf(id), orphan.getKey());
      if (tearable(orphan.getValue(), id, wiped) && Files.exists(log)) {
        bytes += Files.size(log);
      }
    }
    return bytes;
  }

  /**
   * Whether {@code id}'s file of an arc with last chain {@code last} may be torn: it is in the
   * chain but not its tail, and a whole copy stays beside it and the wiped disk.
   */
  private static boolean tearable(List<String> last, String id, String wiped) {
    return last.contains(id) && !last.get(last.size() - 1).equals(id)
        && last.size() - (last.contains(wiped) ? 1 : 0) >= 3;
  }

  /**
   * A member whose files lost their ends: what a power cut does to a member that is not its
   * chain's tail under {@code fawn.kv.durability=tail} (only the tail forces before a write is
   * acknowledged), or a damaged card. Each file of {@code id}'s in an orphaned arc whose last
   * chain it is in but does not end is cut to half (its index checkpoint dropped); the arc must
   * still be recovered with every acknowledged write, from a longer file (choosing the shortest
   * fails this test). Returns how many files were cut.
   */
  private int tearTails(Ring dark, String id, String wiped) throws java.io.IOException {
    int cut = 0;
    for (Map.Entry<Long, List<String>> orphan : dark.orphans().lastChains().entrySet()) {
      if (!tearable(orphan.getValue(), id, wiped)) {
        continue;
      }
      Path log = org.fawnpack.kv.backend.Backend.arcFileOf(cluster.dataOf(id), orphan.getKey());
      if (Files.exists(log) && Files.size(log) > 2 * 32) { // more than its 32-byte header
        try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(log,
            java.nio.file.StandardOpenOption.WRITE)) {
          f.truncate(Math.max(32, Files.size(log) / 2));
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
