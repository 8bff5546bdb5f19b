package org.fawnpack.kv.cluster;

import org.fawnpack.kv.wire.ProtocolLimits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests routed by another ring epoch than the back-end's: answered STALE_RING with the
 * back-end's epoch, never applied, and rerouted by the front-end once the rings agree.
 */
class StaleRingTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();

  @TempDir
  Path dir;

  private final List<Backend> backends = new ArrayList<>();
  private FrontEnd frontEnd;
  private Ring older;
  private Ring newer;

  @BeforeEach
  void start() throws IOException {
    RingHash hash = new RingHash("stale ring test ring key".getBytes(StandardCharsets.UTF_8));
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Backend b = Backend.open("b" + i, new InetSocketAddress("127.0.0." + (i + 1), 0),
          dir.resolve("b" + i), DatastoreConfig.builder().expectedKeys(64).build(), SECRET);
      backends.add(b);
      members.add(b.member());
    }
    older = Ring.at(4, hash, 2, 3, members);
    newer = Ring.at(5, hash, 2, 3, members);
    frontEnd = FrontEnd.open("f", new InetSocketAddress("127.0.0.1", 0), SECRET);
  }

  @AfterEach
  void stop() throws IOException {
    frontEnd.close();
    for (Backend b : backends) {
      b.close();
    }
  }

  private void backendsUse(Ring ring) throws IOException {
    for (Backend b : backends) {
      b.useRing(ring);
    }
  }

  @Test
  void request_olderEpochThanBackend_staleRingWithTheBackendsEpoch() throws IOException {
    backendsUse(newer);
    Member tail = newer.chainForKey(bytes("k")).tail();
    try (Connection toTail = Connection.open(new InetSocketAddress(tail.host(), tail.port()),
        DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
      for (Ring routedBy : List.of(older, Ring.at(9, newer.hash(), 2, 3, newer.members()))) {
        Frame answer = toTail.call(MessageType.GET, routedBy.epoch(),
            new Frame.Payload().addBytes(bytes("k")).toBytes(), DEADLINE);
        assertEquals(MessageType.STALE_RING, answer.type(), "routed by " + routedBy);
        assertEquals(newer.epoch(), answer.epoch());
      }
    }
  }

  @Test
  void put_frontEndBehind_reroutedOnceItFollowsTheNewEpoch() throws Exception {
    backendsUse(newer);
    frontEnd.useRing(older);
    try (FawnKvClient kv = FawnKvClient.connect(frontEnd.address(), DEADLINE, SECRET)) {
      CompletableFuture<Void> put = CompletableFuture.runAsync(() -> {
        try {
          kv.put(bytes("k"), bytes("v"));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      // The put is being rerouted once a back-end has answered STALE_RING (bounded wait).
      for (int i = 0; i < 200 && frontEnd.staleRingAnswers() == 0; i++) {
        Thread.sleep(10);
      }
      assertTrue(frontEnd.staleRingAnswers() > 0, "no STALE_RING answer within 2 s");
      frontEnd.useRing(newer);
      put.get(20, TimeUnit.SECONDS);
      assertArrayEquals(bytes("v"), kv.get(bytes("k")));
    }
  }

  @Test
  void put_ringsNeverAgree_refusedNamingBothEpochs_andNothingStored() throws IOException {
    backendsUse(older);
    frontEnd.useRing(newer); // the back-ends never catch up
    try (FawnKvClient kv = FawnKvClient.connect(frontEnd.address(), DEADLINE, SECRET)) {
      KvException e = assertThrows(KvException.class, () -> kv.put(bytes("k"), bytes("v")));
      assertTrue(e.refused() && e.getMessage().contains("routes by ring epoch 5")
          && e.getMessage().contains("serves epoch 4"), e.getMessage());
      assertTrue(e.getMessage().contains("after " + FawnKvClient.MAX_ATTEMPTS + " tries"),
          e.getMessage());
      assertEquals((long) FrontEnd.STALE_RING_ATTEMPTS * FawnKvClient.MAX_ATTEMPTS,
          frontEnd.staleRingAnswers(), "every try of the client was rerouted until the"
          + " front-end gave up, and both kinds of tries are bounded");
      backendsUse(newer);
      assertEquals(null, kv.get(bytes("k")), "a STALE_RING request is applied nowhere");
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
