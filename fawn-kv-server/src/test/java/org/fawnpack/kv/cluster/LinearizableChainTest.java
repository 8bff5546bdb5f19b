package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.LinearizabilityChecker;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many clients on a few hot keys through a front-end and chains of three, with no faults: each
 * key's recorded history must be linearizable (the per-key check the fault tests will use).
 */
class LinearizableChainTest {
  @TempDir
  Path dir;

  @Test
  void concurrentClients_fewHotKeys_everyKeysHistoryLinearizable() throws Exception {
    Ring ring = Ring.empty(new RingHash("linearizable chains".getBytes(StandardCharsets.UTF_8)),
        2, 3);
    ClusterSecret secret = ClusterSecret.generate();
    List<Backend> backends = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Backend b = Backend.open("b" + i, new InetSocketAddress("127.0.0." + (i + 1), 0),
          dir.resolve("b" + i), DatastoreConfig.builder().expectedKeys(64).build(), secret);
      backends.add(b);
      ring = ring.withMember(b.member());
    }
    for (Backend b : backends) {
      b.useRing(ring);
    }
    HistoryRecorder recorder = new HistoryRecorder();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try (FrontEnd frontEnd = FrontEnd.open("f", new InetSocketAddress("127.0.0.1", 0),
        secret)) {
      frontEnd.useRing(ring);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          Random random = new Random(thread);
          try (FawnKvClient kv = FawnKvClient.connect(frontEnd.address(),
              Duration.ofSeconds(20), secret)) {
            for (int i = 0; i < 250; i++) {
              byte[] key = ("hot" + random.nextInt(3)).getBytes(StandardCharsets.UTF_8);
              switch (random.nextInt(4)) {
                case 0 -> recorder.put(kv, key, ("t" + thread + "i" + i)
                    .getBytes(StandardCharsets.UTF_8));
                case 1 -> recorder.delete(kv, key);
                default -> recorder.get(kv, key);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
      for (Backend b : backends) {
        b.close();
      }
    }
    LinearizabilityChecker checker = new LinearizabilityChecker(5_000_000);
    int ops = 0;
    for (Map.Entry<ByteBuffer, List<Op>> e : recorder.histories().entrySet()) {
      String key = new String(e.getKey().array(), StandardCharsets.UTF_8);
      assertEquals(LinearizabilityChecker.Verdict.LINEARIZABLE,
          checker.check(e.getValue(), null), key + ": " + e.getValue().size() + " ops");
      ops += e.getValue().size();
    }
    assertEquals(6 * 250, ops, "every operation answered and recorded");
    assertTrue(recorder.histories().size() == 3);
  }
}
