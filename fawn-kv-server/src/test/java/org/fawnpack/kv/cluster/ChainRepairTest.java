package org.fawnpack.kv.cluster;

import org.fawnpack.kv.wire.ProtocolLimits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repair by shrinking, in one process with the ring handed over in code: a member of a chain of
 * three stops, a write fails on the way (applied before the break, never acknowledged), then
 * the next epoch marks the member down. What the surviving members must do is checked from the
 * outside, through the front-end: the head resends its unconfirmed writes to its new
 * successor, a new tail serves reads, and the short chain refuses writes by name.
 */
class ChainRepairTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final byte[] KEY = bytes("repaired key");

  @TempDir
  Path dir;

  private InProcessCluster cluster;
  private Chain chain;

  @BeforeEach
  void startChainOfThree() throws IOException {
    cluster = new InProcessCluster(dir, "chain repair test ring key", 3, SECRET);
    chain = cluster.ring.chainForKey(KEY);
  }

  @AfterEach
  void stop() throws IOException {
    cluster.close();
  }

  /** Stops member {@code index} of the key's chain and publishes the epoch with it down. */
  private void failMember(int index, FawnKvClient kv, String writeDuringFailure)
      throws IOException {
    String id = chain.members().get(index).id();
    cluster.backends.remove(id).close();
    if (writeDuringFailure != null) {
      KvException e = assertThrows(KvException.class,
          () -> kv.put(KEY, bytes(writeDuringFailure)));
      assertFalse(e.refused(), "applied before the break, so not a definite failure: " + e);
    }
    cluster.useRing(cluster.ring.withMembersDown(List.of(id)));
  }

  private FawnKvClient client() throws IOException {
    return FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, SECRET);
  }

  @Test
  void middleDown_headResendsItsUnconfirmedWrite_andTheTailServesIt() throws Exception {
    try (FawnKvClient kv = client()) {
      kv.put(KEY, bytes("v1"));
      failMember(1, kv, "v2"); // the head applied v2; its forward to the middle broke
      // The resend runs after the epoch switch; the tail has v2 once it arrived.
      byte[] seen = kv.get(KEY);
      for (int i = 0; i < 100 && !Arrays.equals(seen, bytes("v2")); i++) {
        Thread.sleep(50);
        seen = kv.get(KEY);
      }
      assertArrayEquals(bytes("v2"), seen, "the tail never got the head's unconfirmed write");
      assertShortChainRefusesWrites(kv);
    }
  }

  @Test
  void tailDown_middleBecomesTail_andServesWhatItHolds() throws IOException {
    try (FawnKvClient kv = client()) {
      kv.put(KEY, bytes("v1"));
      failMember(2, kv, "v2"); // head and middle applied v2; the tail never answered
      assertArrayEquals(bytes("v2"), kv.get(KEY));
      assertShortChainRefusesWrites(kv);
    }
  }

  @Test
  void headDown_tailStillServesEveryAcknowledgedWrite() throws IOException {
    try (FawnKvClient kv = client()) {
      kv.put(KEY, bytes("v1"));
      kv.delete(bytes("other"));
      failMember(0, kv, null);
      assertArrayEquals(bytes("v1"), kv.get(KEY));
      assertShortChainRefusesWrites(kv);
    }
  }

  private void assertShortChainRefusesWrites(FawnKvClient kv) throws IOException {
    byte[] before = kv.get(KEY);
    KvException e = assertThrows(KvException.class, () -> kv.put(KEY, bytes("after")));
    assertTrue(e.refused() && e.getMessage().contains("has 2 of 3 members in ring epoch "
        + cluster.ring.epoch()) && e.getMessage().contains("writes refused"), e.getMessage());
    assertArrayEquals(before, kv.get(KEY), "a refused write changed nothing");
  }

  @Test
  void chainWrite_sequenceGap_refusedSoTheReplicaStaysAPrefix() throws IOException {
    var member = chain.members().get(1);
    try (Connection toMiddle = Connection.open(new InetSocketAddress(member.host(),
        member.port()), DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
      Frame gap = toMiddle.call(MessageType.CHAIN_PUT, cluster.ring.epoch(), chainPut(2), DEADLINE);
      assertEquals(MessageType.BEHIND, gap.type());
      String message = MessageType.messageOf(gap);
      assertTrue(message.contains("write 2") && message.contains("came before 1"), message);
      assertEquals(1, MessageType.nextExpectedOf(gap), "where the sender must resend from");
      // In order it is taken, and goes on down the chain to the tail.
      assertEquals(MessageType.OK,
          toMiddle.call(MessageType.CHAIN_PUT, cluster.ring.epoch(), chainPut(1), DEADLINE).type());
    }
    try (FawnKvClient kv = client()) {
      assertArrayEquals(bytes("sent"), kv.get(KEY));
    }
  }

  private byte[] chainPut(long sequence) {
    return new Frame.Payload().addLong(chain.range().endInclusive()).addBytes(KEY)
        .addBytes(bytes("sent")).addLong(sequence).addLong(0).addLong(0).toBytes(); // no id
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
