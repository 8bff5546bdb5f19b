package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.junit.jupiter.api.Test;

/**
 * Chain extension with back-ends as child JVMs killed by SIGKILL: after one member dies, only
 * the arcs whose chain held it travel, each to one new member, as a byte-for-byte copy of the
 * tail's file; after the two other original members of those chains die too, every
 * acknowledged write is still read back with its latest value (a model map is the oracle), so
 * the copies were whole; with two back-ends left, a write is refused by name.
 */
class ChainExtensionTest extends ChildClusterTest {
  private static final int BACKENDS = 5;
  private static final int KEYS = 300;
  private static final Duration DEADLINE = Duration.ofSeconds(15);

  @Override
  int backends() {
    return BACKENDS;
  }

  /** Byte-for-byte copies are checked after the fact: no compaction may rewrite a file since. */
  @Override
  java.util.Map<String, String> ownSettings(int i) {
    return java.util.Map.of("fawn.kv.compaction.enabled", "false");
  }

  @Test
  void kill9_oneMemberThenTheOtherTwoOfItsChains_onlyItsArcsCopied_everyWriteReadBack()
      throws Exception {
    Map<String, byte[]> model = new LinkedHashMap<>();
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE,
        cluster.secret)) {
      for (int round = 0; round < 2; round++) { // overwrites, so logs hold stale versions too
        for (int k = 0; k < KEYS; k++) {
          byte[] value = ("v" + round + "-" + k + "-" + "x".repeat(k % 50))
              .getBytes(StandardCharsets.UTF_8);
          kv.put(key(k), value);
          model.put("key-" + k, value);
        }
      }
      Ring before = cluster.currentRing();
      String victim = before.chainForKey(key(0)).head().id();
      long killed = System.nanoTime();
      cluster.kill9(victim);
      cluster.awaitEpochAbove(before.epoch());
      long shrunk = System.nanoTime();
      cluster.awaitCopiesServing();
      System.out.printf("ChainExtensionTest: SIGKILL to the shrunk epoch %d ms, then to the"
          + " copies serving %d ms%n", (shrunk - killed) / 1_000_000,
          (System.nanoTime() - shrunk) / 1_000_000);
      Ring after = cluster.currentRing();

      Map<Long, Member> expectedCopies = new HashMap<>(); // arc end -> its new member
      for (Chain was : before.chains()) {
        if (was.members().stream().anyMatch(m -> m.id().equals(victim))) {
          Chain now = after.chainFor(was.range().endInclusive());
          Set<Member> added = new HashSet<>(now.members());
          was.members().forEach(added::remove);
          assertEquals(1, added.size(), "arc " + was.range() + ": " + was + " -> " + now);
          expectedCopies.put(was.range().endInclusive(), added.iterator().next());
        }
      }
      assertCopiedExactly(expectedCopies, before, victim);

      // Now the other two original members of key 0's chain: its arc lives on copies only.
      for (Member m : before.chainForKey(key(0)).members()) {
        if (!m.id().equals(victim)) {
          cluster.kill9(m.id());
        }
      }
      cluster.awaitEpochAbove(after.epoch());
      cluster.awaitCopiesServing();
      for (int k = 0; k < KEYS; k++) {
        assertArrayEquals(model.get("key-" + k), kv.get(key(k)), "key-" + k);
      }
      // Two live back-ends cannot make a chain of three: a write fails cleanly, by name.
      KvException refused = assertThrows(KvException.class,
          () -> kv.put(key(0), "after".getBytes(StandardCharsets.UTF_8)));
      assertTrue(refused.refused() && refused.getMessage().contains("writes refused"),
          refused.getMessage());
      assertArrayEquals(model.get("key-0"), kv.get(key(0)));
    }
  }

  /**
   * Each new member's copy of each arc is byte-identical to the serving tail's file, no other
   * arc was copied, and the bytes each back-end reported equal what is on its disk.
   */
  private void assertCopiedExactly(Map<Long, Member> expectedCopies, Ring before,
      String victim) throws Exception {
    Map<String, Long> reportedBytes = new HashMap<>();
    ClusterPaths paths = ChildCluster.PATHS;
    for (String id : cluster.zk.getChildren().forPath(paths.copies())) {
      String[] words = new String(cluster.zk.getData().forPath(paths.copied(id)),
          StandardCharsets.UTF_8).split(" ");
      reportedBytes.put(id, Long.parseLong(words[5]));
    }
    Map<String, Long> bytesOnDisk = new HashMap<>();
    for (Map.Entry<Long, Member> copy : expectedCopies.entrySet()) {
      String file = String.format("arc-%016x.fds", copy.getKey());
      Path copied = cluster.dataOf(copy.getValue().id()).resolve(file);
      Member tail = before.chainFor(copy.getKey()).members().stream()
          .filter(m -> !m.id().equals(victim)).reduce((a, b) -> b).orElseThrow();
      assertArrayEquals(Files.readAllBytes(cluster.dataOf(tail.id()).resolve(file)),
          Files.readAllBytes(copied), file + " on " + copy.getValue() + " vs " + tail);
      bytesOnDisk.merge(copy.getValue().id(), Files.size(copied)
          + Files.size(copied.resolveSibling(file + ".idx")), Long::sum);
    }
    assertEquals(bytesOnDisk, reportedBytes, "bytes copied per back-end, and who copied");
    for (NodeProcess b : cluster.backends) {
      long arcFiles;
      try (var files = Files.list(cluster.dataOf(b.id()))) {
        arcFiles = files.filter(p -> p.getFileName().toString().matches("arc-.*\\.fds"))
            .count();
      }
      long served = before.chains().stream().filter(c -> c.members().stream()
          .anyMatch(m -> m.id().equals(b.id()))).count();
      long copies = expectedCopies.values().stream().filter(m -> m.id().equals(b.id()))
          .count();
      assertEquals(b.id().equals(victim) ? served : served + copies, arcFiles,
          b.id() + ": the arcs it served and the ones it copied, no more");
    }
  }

  private static byte[] key(int k) {
    return ("key-" + k).getBytes(StandardCharsets.UTF_8);
  }
}
