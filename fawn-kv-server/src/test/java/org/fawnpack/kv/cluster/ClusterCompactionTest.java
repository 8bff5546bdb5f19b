package org.fawnpack.kv.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.backend.CompactionSettings;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.scan.RangeScan;
import org.fawnpack.kv.scan.ScanPage;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.StatsReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compaction on every member of three-member chains, against a model of what the clients
 * wrote: after rounds of overwrites and deletes each back-end compacts, the cluster's files
 * shrink to within twice the replicas' live bytes, and every member's file (read at the
 * tail's last write, from that member) holds exactly the model; a point-in-time scan kept open
 * across compactions reads exactly its instant, and a cut older than what the members kept is
 * refused by name rather than answered from a file that lost its versions.
 */
class ClusterCompactionTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int KEYS = 600;

  @TempDir
  Path dir;

  private InProcessCluster cluster;
  private ConnectionPool pool;
  private final Map<String, String> model = new HashMap<>();
  private final Random random = new Random(20261127);

  @BeforeEach
  void start() throws IOException {
    cluster = new InProcessCluster(dir, "compaction test ring key", 3, SECRET);
    for (Backend b : cluster.backends.values()) {
      b.compactWith(new CompactionSettings(0.3, 1L << 30, 0, 50));
    }
    pool = new ConnectionPool(DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET);
  }

  @AfterEach
  void stop() throws IOException {
    pool.close();
    cluster.close();
  }

  /** {@code rounds} of writes to every key: a fresh value, or (one in five) a delete. */
  private void overwrite(int rounds) throws IOException {
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, SECRET)) {
      for (int round = 0; round < rounds; round++) {
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
          String key = "key/" + i;
          if (random.nextInt(5) == 0) {
            kv.delete(bytes(key));
            model.remove(key);
          } else {
            String value = "r" + round + "-" + i + "-" + "x".repeat(random.nextInt(400));
            keys.add(bytes(key));
            values.add(bytes(value));
            model.put(key, value);
          }
        }
        kv.putAll(keys, values);
      }
    }
  }

  private Map<String, StatsReport> stats() throws IOException {
    Map<String, StatsReport> reports = new HashMap<>();
    for (Member m : cluster.ring.members()) {
      reports.put(m.id(), StatsReport.decode(pool.to(m).call(MessageType.STATS,
          cluster.ring.epoch(), null, DEADLINE)));
    }
    return reports;
  }

  /** Polls (bounded) until every back-end compacted at least {@code times} times. */
  private Map<String, StatsReport> awaitCompactions(int times) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      Map<String, StatsReport> now = stats();
      if (now.values().stream().allMatch(r -> r.compactions() >= times)) {
        return now;
      }
      assertTrue(System.nanoTime() < deadline, "not every back-end compacted: " + now);
      Thread.sleep(100);
    }
  }

  @Test
  void overwritesAndDeletes_everyMemberCompacts_filesNearTheLiveBytes_eachFileAsTheModel()
      throws Exception {
    overwrite(8);
    awaitCompactions(1);
    // Each record of the model costs its key, value and at most 48 bytes of header, position
    // and padding, on each of the three replicas.
    long liveBound = 0;
    for (Map.Entry<String, String> e : model.entrySet()) {
      liveBound += e.getKey().length() + e.getValue().length() + 48;
    }
    long bound = 2 * 3 * liveBound;
    long deadline = System.nanoTime() + WAIT.toNanos();
    long logBytes;
    while ((logBytes = logBytes(stats())) > bound) {
      assertTrue(System.nanoTime() < deadline, logBytes + " log bytes after compactions, over"
          + " twice the replicas' live bytes " + bound / 2 + ": " + stats());
      Thread.sleep(100);
    }
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, SECRET)) {
      for (int i = 0; i < KEYS; i++) {
        String key = "key/" + i;
        byte[] got = kv.get(bytes(key));
        assertEquals(model.get(key), got == null ? null : new String(got,
            StandardCharsets.UTF_8), key);
      }
    }
    // Every member's own file, read at the tail's last write from that member.
    for (Chain chain : cluster.ring.chains()) {
      long cut = lastSequenceAtTail(chain);
      for (Member member : chain.members()) {
        RangeScan scan = new RangeScan(() -> cluster.ring, pool, chain.range(),
            RangeScan.Options.defaults().withPageBytes(4096)
                .asOf(cut, host -> host.equals(member.host())));
        Map<String, String> read = RangeScanTest.readAll(scan, new HashMap<>());
        assertEquals(modelIn(chain.range()), read, member.id() + "'s file of "
            + chain.range());
      }
    }
  }

  @Test
  void aCutScanKeptOpenReadsItsInstantAcrossCompactions_anOlderCutIsRefusedByName()
      throws Exception {
    overwrite(1);
    Map<String, String> atCut = Map.copyOf(model);
    Chain first = cluster.ring.chains().get(0);
    Chain second = cluster.ring.chains().get(1);
    long firstCut = lastSequenceAtTail(first);
    long secondCut = lastSequenceAtTail(second);
    RangeScan kept = new RangeScan(() -> cluster.ring, pool, first.range(),
        RangeScan.Options.defaults().withPageBytes(1024).asOf(firstCut, host -> false));
    Map<String, String> read = new HashMap<>();
    for (int i = 0; i < 20; i++) {
      ScanPage.ScanEntry e = kept.next();
      assertNull(read.put(new String(e.key(), StandardCharsets.UTF_8),
          new String(e.value(), StandardCharsets.UTF_8)));
    }
    overwrite(6);
    awaitCompactions(1);
    RangeScanTest.readAll(kept, read);
    Map<String, String> expected = new HashMap<>(atCut);
    expected.keySet().removeIf(k -> !first.range().contains(position(k)));
    assertEquals(expected, read, "the kept scan's instant");

    // No scan kept the second arc's cut: its members compacted past it.
    RangeScan.Options quick = new RangeScan.Options(1024, new byte[0], Duration.ofSeconds(5),
        Duration.ofSeconds(2), secondCut, host -> false);
    RangeScan old = new RangeScan(() -> cluster.ring, pool, second.range(), quick);
    IOException refused = assertThrows(IOException.class,
        () -> RangeScanTest.readAll(old, new HashMap<>()));
    assertTrue(refused.getMessage().contains("fawn.kv.compaction.cut-retention-ms"),
        refused.getMessage());
  }

  private long lastSequenceAtTail(Chain chain) throws IOException {
    StatsReport report = StatsReport.decode(pool.to(chain.tail()).call(MessageType.STATS,
        cluster.ring.epoch(), null, DEADLINE));
    return report.arcs().stream().filter(a -> a.range().equals(chain.range())).findFirst()
        .orElseThrow().lastSequence();
  }

  private static long logBytes(Map<String, StatsReport> reports) {
    return reports.values().stream().flatMap(r -> r.arcs().stream())
        .mapToLong(StatsReport.Arc::logBytes).sum();
  }

  private Map<String, String> modelIn(KeyRange range) {
    Map<String, String> in = new HashMap<>(model);
    in.keySet().removeIf(k -> !range.contains(position(k)));
    return in;
  }

  private long position(String key) {
    return cluster.ring.hash().position(bytes(key));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
