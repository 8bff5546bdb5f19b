package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.RangeScan;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ConnectionPool;
import org.junit.jupiter.api.Test;

/**
 * A dead back-end removed for good with {@code fawn kv remove} in a child JVM while the checked
 * workload runs: every history must be linearizable; afterwards the ring has the remaining
 * members' virtual nodes only (its arcs merged), every chain is whole, each back-end holds
 * exactly the files of the arcs it serves, every key written before the removal reads back as
 * written (a model of the writes, by get and by a scan of the merged arcs), and the removed
 * back-end, started again on its old files, is not taken back. Asking to remove a live member
 * is refused by name.
 */
class BackendRemovalTest extends ChildClusterTest {
  private static final int KEYS = 400;

  @Override
  int backends() {
    return 5;
  }

  @Test
  void remove_deadBackend_underWrites_arcsMerge_everyKeyKept_notTakenBack() throws Exception {
    Map<String, String> model = new TreeMap<>();
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(),
        Duration.ofSeconds(15), cluster.secret)) {
      for (int i = 0; i < KEYS; i++) {
        String key = "before-" + i;
        String value = "value-" + i + "-" + "x".repeat(i % 50);
        kv.put(bytes(key), bytes(value));
        model.put(key, value);
      }
      for (int i = 0; i < KEYS; i += 7) {
        kv.put(bytes("before-" + i), bytes("again-" + i)); // garbage for the merges to skip
        model.put("before-" + i, "again-" + i);
      }
    }
    Ring before = cluster.currentRing();
    String dead = before.chainForKey(CheckedWorkload.key(0)).tail().id();
    String live = before.members().stream().map(m -> m.id()).filter(id -> !id.equals(dead))
        .findFirst().orElseThrow();

    NodeProcess refused = NodeProcess.command("remove-live", dir.resolve("remove-live"),
        cluster.settings, List.of("remove", "--id", live, "--timeout-s", "30"));
    assertEquals(1, refused.awaitExit(60));
    String refusedLog = Files.readString(dir.resolve("remove-live").resolve("remove-live.log"));
    assertTrue(refusedLog.contains("is live"), refusedLog);

    cluster.kill9(dead);
    cluster.awaitRing(r -> r.isDown(dead), dead + " marked down");
    cluster.awaitCopiesServing();

    AtomicReference<Integer> exit = new AtomicReference<>();
    HistoryRecorder history = new CheckedWorkload(cluster).run(
        List.of(cluster.frontEnd.address()), () -> {
          NodeProcess remove = NodeProcess.command("remove", dir.resolve("remove"),
              cluster.settings, List.of("remove", "--id", dead, "--timeout-s", "60"));
          exit.set(remove.awaitExit(90));
        });
    String removeLog = Files.readString(dir.resolve("remove").resolve("remove.log"));
    assertEquals(0, exit.get(), removeLog);
    assertTrue(removeLog.contains("is removed"), removeLog);
    assertTrue(history.histories().values().stream().flatMap(List::stream)
        .anyMatch(op -> op.kind() == Op.Kind.PUT && op.outcome() == Op.Outcome.OK),
        "the clients wrote");

    cluster.awaitCopiesServing();
    Ring after = cluster.currentRing();
    assertNull(after.member(dead), after.toString());
    assertEquals((backends() - 1) * ChildCluster.VNODES, after.chains().size(), after.toString());
    assertTrue(after.removing().isEmpty() && after.frozen().isEmpty(), after.toString());
    for (Chain chain : after.chains()) {
      assertEquals(ChildCluster.REPLICAS, chain.members().size(), chain.toString());
    }
    cluster.awaitArcFilesMatchRing(after);
    long merges = 0;
    for (var m : after.members()) {
      merges += Files.readString(Path.of(cluster.backend(m.id()).logFile())).lines()
          .filter(l -> l.contains("merged its files of")).count();
    }
    assertTrue(merges >= ChildCluster.VNODES, merges + " merges logged for the dead member's "
        + ChildCluster.VNODES + " arcs");

    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(),
        Duration.ofSeconds(15), cluster.secret)) {
      for (Map.Entry<String, String> e : model.entrySet()) {
        assertArrayEquals(bytes(e.getValue()), kv.get(bytes(e.getKey())), e.getKey());
      }
    }
    try (ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(5), 1 << 20,
        cluster.secret)) {
      Map<String, String> scanned = RangeScanTest.readAll(new RangeScan(() -> {
        try {
          return cluster.currentRing();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }, pool, KeyRange.wholeRing(), RangeScan.Options.defaults().withPageBytes(4096)),
          new HashMap<>());
      scanned.keySet().removeIf(k -> !k.startsWith("before-"));
      assertEquals(model, scanned, "a scan of the merged arcs");
    }

    // Started again on its old files, it registers but is not taken back under its id.
    cluster.restart(dead, false);
    cluster.awaitRegistration(dead);
    long until = System.nanoTime() + 3_000_000_000L;
    while (System.nanoTime() < until) {
      assertNull(cluster.currentRing().member(dead), "a removed back-end was taken back");
      Thread.sleep(100); // watching for a change that must not come
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
