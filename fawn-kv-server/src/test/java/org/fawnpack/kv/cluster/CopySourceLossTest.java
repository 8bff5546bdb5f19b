package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chain extension when the member a copy came from dies before the copier serves: the copier
 * throws its copy away and copies the arc again from the new tail, and once it serves, every
 * write is read back from it (a model map is the oracle). In one process, the ring handed
 * over in code as the coordinator would publish it.
 */
class CopySourceLossTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();

  private record Report(long epoch, int arcs, long bytes) {}

  @TempDir
  Path dir;

  private final Map<String, Backend> backends = new HashMap<>();
  private final Map<String, BlockingQueue<Report>> reports = new HashMap<>();
  private FrontEnd frontEnd;

  @AfterEach
  void stop() throws IOException {
    if (frontEnd != null) {
      frontEnd.close();
    }
    for (Backend b : backends.values()) {
      b.close();
    }
  }

  @Test
  void copySourceDiesBeforePromotion_copiedAgainFromNewTail_everyWriteReadBack()
      throws Exception {
    Ring ring = Ring.empty(new RingHash(bytes("copy source loss test ring key")), 1, 3);
    for (int i = 0; i < 4; i++) {
      String id = "b" + i;
      Backend b = Backend.open(id, new InetSocketAddress("127.0.0." + (i + 1), 0),
          dir.resolve(id), DatastoreConfig.builder().expectedKeys(256).build(), SECRET);
      BlockingQueue<Report> queue = new LinkedBlockingQueue<>();
      b.reportCopiesTo((epoch, arcs, total) -> queue.add(new Report(epoch, arcs, total)));
      backends.put(id, b);
      reports.put(id, queue);
      ring = ring.withMember(b.member());
    }
    frontEnd = FrontEnd.open("f", new InetSocketAddress("127.0.0.1", 0), SECRET);
    useRing(ring);
    Map<String, byte[]> model = new HashMap<>();
    try (FawnKvClient kv = FawnKvClient.connect(frontEnd.address(), DEADLINE, SECRET)) {
      for (int k = 0; k < 200; k++) {
        byte[] value = bytes("value " + k);
        kv.put(bytes("key " + k), value);
        model.put("key " + k, value);
      }
      Chain chain = ring.chainForKey(bytes("key 0"));
      Member head = chain.head();
      Member middle = chain.members().get(1);
      Member tail = chain.tail();
      stopBackend(tail.id());
      Ring shrunk = ring.withMembersDown(List.of(tail.id()));
      useRing(shrunk);
      Member copier = shrunk.chainForKey(bytes("key 0")).nextPending();
      assertNotNull(copier, "the fourth back-end replaces the tail: " + shrunk);
      Report first = awaitReport(copier.id(), shrunk.epoch());

      stopBackend(middle.id()); // the copy's source, before the copier serves
      Ring again = shrunk.withMembersDown(List.of(middle.id()));
      useRing(again);
      assertEquals(List.of(head), again.chainForKey(bytes("key 0")).members());
      Report second = awaitReport(copier.id(), again.epoch());
      assertTrue(second.bytes() > first.bytes(), first + " then " + second);
      // Each member's log has its own id in its header: an identical file came from the head.
      String file = String.format("arc-%016x.fds", chain.range().endInclusive());
      assertArrayEquals(Files.readAllBytes(dir.resolve(head.id()).resolve(file)),
          Files.readAllBytes(dir.resolve(copier.id()).resolve(file)),
          "the copy of key 0's arc was made again from " + head);

      Ring serving = again.withPendingDone(again.pending().keySet());
      useRing(serving);
      assertEquals(List.of(head, copier), serving.chainForKey(bytes("key 0")).members());
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), kv.get(bytes(e.getKey())), e.getKey());
      }
    }
  }

  private Report awaitReport(String id, long epoch) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (System.nanoTime() < deadline) {
      Report r = reports.get(id).poll(100, TimeUnit.MILLISECONDS);
      if (r != null && r.epoch() == epoch) {
        return r;
      }
    }
    throw new AssertionError(id + " never reported its copies of epoch " + epoch);
  }

  private void stopBackend(String id) throws IOException {
    backends.remove(id).close();
  }

  private void useRing(Ring next) throws IOException {
    for (Backend b : backends.values()) {
      b.useRing(next);
    }
    frontEnd.useRing(next);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
