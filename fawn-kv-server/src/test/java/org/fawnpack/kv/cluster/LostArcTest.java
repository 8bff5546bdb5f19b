package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.Test;

/**
 * A power cut after which one arc's every copy is gone (its file deleted on each member of its
 * last chain): the arc cannot be recovered, and while it waits no copier anywhere is promoted.
 * {@code fawn kv lost --arc END} (a child JVM) declares it gone; then every other arc heals,
 * the lost arc's keys fail by name (at once: LOST is final, not retried), alone or in a batch,
 * and every other key holds what was written (the oracle: a map of the acknowledged puts, with
 * no other writer).
 */
class LostArcTest extends ChildClusterTest {
  private static final Duration DEADLINE = Duration.ofSeconds(15);

  @Override
  int backends() {
    return 5;
  }

  @Test
  void everyCopyOfAnArcGone_declaredLost_othersHeal_itsKeysFailByName() throws Exception {
    Map<String, String> written = new TreeMap<>();
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE,
        cluster.secret)) {
      for (int i = 0; i < 200; i++) {
        written.put("k" + i, "v" + i);
        kv.put(bytes("k" + i), bytes("v" + i));
      }
    }
    List<String> ids = cluster.currentRing().members().stream().map(Member::id).toList();
    for (String id : ids) {
      cluster.kill9(id);
    }
    Ring dark = cluster.awaitRing(r -> r.down().size() == ids.size(), "every back-end down");
    long gone = dark.chainForKey(bytes("k0")).range().endInclusive();
    for (String id : dark.orphans().lastChains().get(gone)) {
      Path log = Backend.arcFileOf(cluster.dataOf(id), gone);
      Files.deleteIfExists(log);
      Files.deleteIfExists(org.fawnpack.kv.store.LogSnapshot.checkpointOf(log));
    }
    for (String id : ids) {
      cluster.restart(id, true);
    }
    cluster.awaitRing(r -> r.down().isEmpty() && r.orphans().lastChains().keySet()
        .equals(java.util.Set.of(gone)) && r.orphans().sources().size() > 0,
        "every other arc recovered from a file, the gone one still waiting");

    NodeProcess lost = NodeProcess.command("lost", dir.resolve("lost"), cluster.settings,
        List.of("lost", "--arc", String.format("%016x", gone), "--timeout-s", "60"));
    String log = dir.resolve("lost").resolve("lost.log").toString();
    assertEquals(0, lost.awaitExit(90), log);
    Ring healed = cluster.awaitRing(r -> r.pending().isEmpty() && r.orphans().isEmpty(),
        "every other arc's chain whole");
    assertEquals(java.util.Set.of(gone), healed.orphans().lost());

    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE,
        cluster.secret)) {
      int lostKeys = 0;
      for (Map.Entry<String, String> e : written.entrySet()) {
        byte[] key = bytes(e.getKey());
        if (healed.chainForKey(key).range().endInclusive() == gone) {
          lostKeys++;
          KvException failure = assertThrows(KvException.class, () -> kv.get(key));
          assertTrue(failure.refused() && failure.getMessage().contains("is lost"),
              failure.getMessage());
        } else {
          assertArrayEquals(bytes(e.getValue()), kv.get(key), e.getKey());
        }
      }
      assertTrue(lostKeys > 0 && lostKeys < written.size(), lostKeys + " keys in the lost arc");
      String other = written.keySet().stream().filter(k -> healed.chainForKey(bytes(k)).range()
          .endInclusive() != gone).findFirst().orElseThrow();
      kv.put(bytes(other), bytes("after"));
      assertArrayEquals(bytes("after"), kv.get(bytes(other)), "the healed arcs take writes");
      // A batch with keys of the lost arc: those fail at once, by name; the rest are stored.
      String inLost = written.keySet().stream().filter(k -> healed.chainForKey(bytes(k))
          .range().endInclusive() == gone).findFirst().orElseThrow();
      KvException batch = assertThrows(KvException.class, () -> kv.putAll(
          List.of(bytes(inLost), bytes(other)), List.of(bytes("x"), bytes("batched"))));
      assertTrue(batch.refused() && batch.getMessage().startsWith("1 of 2 PUTs failed")
          && batch.getMessage().contains("is lost"), batch.getMessage());
      assertArrayEquals(bytes("batched"), kv.get(bytes(other)), "the batch's other put");
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
