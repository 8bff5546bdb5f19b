package org.fawnpack.kv.cluster;

import org.fawnpack.kv.wire.ProtocolLimits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.WriteId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write sent again under the same {@link WriteId} (a client's retry after it could not know
 * whether the first try took effect) is answered for the first try and not applied twice, at
 * the head that applied it and at the member that becomes head after it fails. The oracle is
 * the order of the writes: a retry of an earlier put must not bring its value back over a later
 * put, and a retried delete answers as its first try saw the key. In one process, with the ring
 * handed over in code; requests are raw frames to the front-end, so the ids are the test's.
 */
class IdempotentRetryTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final byte[] KEY = bytes("retried key");

  @TempDir
  Path dir;

  private InProcessCluster cluster;

  @BeforeEach
  void startChainOfThree() throws IOException {
    cluster = new InProcessCluster(dir, "idempotent retry test ring", 4, SECRET);
  }

  @AfterEach
  void stop() throws IOException {
    cluster.close();
  }

  @Test
  void retriedPut_afterALaterPut_notAppliedAgain_atTheHeadAndAtTheNextHead() throws Exception {
    WriteId first = new WriteId(11, 1);
    try (Connection c = raw(); FawnKvClient kv = client()) {
      assertEquals(MessageType.OK, put(c, "A", first).type());
      assertEquals(MessageType.OK, put(c, "B", new WriteId(22, 1)).type());
      assertEquals(MessageType.OK, put(c, "A", first).type(), "the retry is answered");
      assertArrayEquals(bytes("B"), kv.get(KEY), "and not applied over the later put");

      Chain chain = cluster.ring.chainForKey(KEY);
      String head = chain.head().id();
      cluster.backends.remove(head).close();
      // The chain is short (its replacement has not copied), so it takes no new write; the
      // retry of a committed one is still answered.
      cluster.useRing(cluster.ring.withMembersDown(List.of(head)));
      assertEquals(MessageType.OK, put(c, "A", first).type(),
          "the next head knows the write from the chain and answers the retry");
      assertEquals(MessageType.REFUSED, put(c, "C", new WriteId(11, 2)).type(),
          "a new write is refused by the short chain");
      assertArrayEquals(bytes("B"), kv.get(KEY), "still not applied again");
    }
  }

  @Test
  void retryOfAWriteItDoesNotKnow_atAHeadRestartedOnItsFiles_unknownOutcome_notApplied()
      throws Exception {
    try (Connection c = raw(); FawnKvClient kv = client()) {
      assertEquals(MessageType.OK, put(c, "A", new WriteId(44, 1), false).type());
      // The head stops cleanly and comes back on its files at another port: its table of
      // recent writes starts empty, so it cannot tell which retries it applied before.
      Backend again = cluster.restart(cluster.ring.chainForKey(KEY).head().id());
      cluster.useRing(cluster.ring.withAddresses(List.of(again.member())));
      assertEquals(MessageType.UNKNOWN_OUTCOME, put(c, "B", new WriteId(55, 1), true).type(),
          "a retry whose first try it cannot vouch for");
      assertArrayEquals(bytes("A"), kv.get(KEY), "is not applied");
      assertEquals(MessageType.OK, put(c, "B", new WriteId(55, 2), false).type(),
          "while a first try (or a retry after refusals only) is");
      assertArrayEquals(bytes("B"), kv.get(KEY));
    }
  }

  @Test
  void retryReachingAHeadThatCopiedTheArc_answeredFromTheCopiedTable_notAppliedAgain()
      throws Exception {
    Map<String, Long> reported = new java.util.concurrent.ConcurrentHashMap<>();
    cluster.backends.forEach((id, b) -> b.reportCopiesTo((epoch, arcs, bytes) -> reported.put(id,
        epoch)));
    WriteId first = new WriteId(66, 1);
    try (Connection c = raw(); FawnKvClient kv = client()) {
      assertEquals(MessageType.OK, put(c, "A", first, false).type());
      assertEquals(MessageType.OK, put(c, "B", new WriteId(77, 1), false).type());
      // The key's head goes; the fourth back-end copies the arc from the tail and serves.
      Chain chain = cluster.ring.chainForKey(KEY);
      cluster.backends.remove(chain.head().id()).close();
      Ring shrunk = cluster.ring.withMembersDown(List.of(chain.head().id()));
      cluster.useRing(shrunk);
      String copier = shrunk.chainForKey(KEY).nextPending().id();
      long deadline = System.nanoTime() + DEADLINE.toNanos();
      while (!shrunk.pending().keySet().stream()
          .allMatch(id -> reported.getOrDefault(id, -1L) == shrunk.epoch())) {
        assertTrue(System.nanoTime() < deadline, "copies not reported: " + reported);
        Thread.sleep(20); // every copier must hold its copies before the ring lets them serve
      }
      Ring served = shrunk.withPendingDone(shrunk.pending().keySet());
      cluster.useRing(served);
      // Then the two members that held the arc from the start go too: the copy is the head.
      List<String> originals = served.chainForKey(KEY).members().stream()
          .map(org.fawnpack.kv.ring.Member::id).filter(id -> !id.equals(copier)).toList();
      for (String id : originals) {
        cluster.backends.remove(id).close();
      }
      cluster.useRing(served.withMembersDown(originals));
      assertEquals(copier, cluster.ring.chainForKey(KEY).head().id());
      assertEquals(MessageType.OK, put(c, "A", first, true).type(),
          "the copy came with the tail's table, so the retry is answered");
      assertArrayEquals(bytes("B"), kv.get(KEY), "and not applied again over the later put");
    }
  }

  @Test
  void retriedDelete_answersAsItsFirstTrySawTheKey() throws Exception {
    WriteId delete = new WriteId(33, 7);
    try (Connection c = raw()) {
      assertEquals(MessageType.OK, put(c, "here", new WriteId(33, 6)).type());
      assertEquals(MessageType.OK, delete(c, delete).type(), "the key was there");
      assertEquals(MessageType.OK, delete(c, delete).type(), "the retry says so too");
      assertEquals(MessageType.NOT_FOUND, delete(c, new WriteId(33, 8)).type(),
          "a new delete finds it gone");
    }
  }

  /** A connection to the front-end for hand-made frames (the write ids are the test's). */
  private Connection raw() throws IOException {
    return Connection.open(cluster.frontEnd.address(), DEADLINE, ProtocolLimits.MAX_FRAME_BYTES,
        SECRET);
  }

  private FawnKvClient client() throws IOException {
    return FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, SECRET);
  }

  /** A retry of the put {@code id} after a try whose outcome is unknown. */
  private static Frame put(Connection c, String value, WriteId id) throws IOException {
    return put(c, value, id, true);
  }

  private static Frame put(Connection c, String value, WriteId id, boolean retryAfterUnknown)
      throws IOException {
    return c.call(MessageType.PUT, 0, id.addTo(new Frame.Payload().addBytes(KEY)
        .addBytes(bytes(value)), retryAfterUnknown).toBytes(), DEADLINE);
  }

  private static Frame delete(Connection c, WriteId id) throws IOException {
    return c.call(MessageType.DELETE, 0, id.addTo(new Frame.Payload().addBytes(KEY), true)
        .toBytes(), DEADLINE);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
