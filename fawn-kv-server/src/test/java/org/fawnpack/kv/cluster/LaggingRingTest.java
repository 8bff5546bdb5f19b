package org.fawnpack.kv.cluster;

import org.fawnpack.kv.wire.ProtocolLimits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
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
 * Members whose rings disagree for a moment (a watch reaches one back-end before another): a
 * chain message from a member on another epoch is answered STALE_RING and taken nowhere; so is
 * a copier's question (a member still splitting its files for a join has not taken the
 * epoch). The
 * fault loop found what happens otherwise: a middle member already on the epoch that drops its
 * tail takes its predecessor's write as the new tail and commits it, while the front-end, on
 * the older epoch, still reads from the old tail, which never got it — an acknowledged write
 * not read back. In one process, with each back-end handed its ring in code.
 */
class LaggingRingTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  /** Long enough for every try of a write to fail (FawnKvClient: about 1.6 s of pauses). */
  private static final Duration SHORT_DEADLINE = Duration.ofSeconds(4);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final byte[] KEY = bytes("lagging key");

  @TempDir
  Path dir;

  private InProcessCluster cluster;
  private Chain chain;

  @BeforeEach
  void startChainOfThree() throws IOException {
    cluster = new InProcessCluster(dir, "lagging ring test ring key", 3, SECRET);
    chain = cluster.ring.chainForKey(KEY);
  }

  @AfterEach
  void stop() throws IOException {
    cluster.close();
  }

  @Test
  void middleAlreadyWithoutItsTail_acknowledgesNothingTheOldTailLacks() throws Exception {
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), SHORT_DEADLINE,
        SECRET)) {
      kv.put(KEY, bytes("v1"));
      Ring tailDown = cluster.ring.withMembersDown(List.of(chain.tail().id()));
      // Only the middle has the new epoch: there it is the tail. Head, old tail and
      // front-end still route by the old one.
      middle().useRing(tailDown);

      boolean acknowledged;
      try {
        kv.put(KEY, bytes("v2"));
        acknowledged = true;
      } catch (KvException e) {
        acknowledged = false;
        assertFalse(e.refused(), "the head applied v2 before forwarding it: " + e);
      }
      byte[] read = kv.get(KEY); // from the old tail, by the old epoch
      if (acknowledged) {
        assertArrayEquals(bytes("v2"), read, "v2 was acknowledged, yet the tail the front-end"
            + " reads from returns " + new String(read, StandardCharsets.UTF_8));
      }
      assertFalse(acknowledged, "no member on the old epoch's chain committed v2, yet it was"
          + " acknowledged");
      assertArrayEquals(bytes("v1"), read);

      // The rings agree again: the head's unconfirmed v2 reaches the middle, now the tail.
      // (Read there, not through the front-end, whose cache still holds the v1 it was shown:
      // v2's outcome was unknown to it.)
      cluster.useRing(tailDown);
      Member newTail = tailDown.chainForKey(KEY).tail();
      assertEquals(chain.members().get(1), newTail);
      byte[] seen = valueAtTail(newTail, tailDown.epoch());
      for (int i = 0; i < 100 && !Arrays.equals(seen, bytes("v2")); i++) {
        Thread.sleep(50); // bounded: the head resends every 20 ms once the rings agree
        seen = valueAtTail(newTail, tailDown.epoch());
      }
      assertArrayEquals(bytes("v2"), seen, "the head's unconfirmed write never reached the"
          + " new tail");
    }
  }

  /** The key's value as {@code tail} answers a GET routed by {@code epoch} (null: absent). */
  private static byte[] valueAtTail(Member tail, long epoch) throws IOException {
    try (Connection c = Connection.open(new InetSocketAddress(tail.host(), tail.port()),
        DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
      Frame answer = c.call(MessageType.GET, epoch, new Frame.Payload().addBytes(KEY)
          .toBytes(), DEADLINE);
      if (answer.type() == MessageType.NOT_FOUND) {
        return null;
      }
      assertEquals(MessageType.VALUE, answer.type(), MessageType.messageOf(answer));
      return answer.fields().nextBytes(ProtocolLimits.MAX_VALUE_BYTES, "the value");
    }
  }

  @Test
  void chainMessageFromAnotherEpoch_staleRingWithTheArcsEpoch_nothingTaken() throws Exception {
    Member middle = chain.members().get(1);
    long epoch = cluster.ring.epoch();
    try (Connection toMiddle = Connection.open(new InetSocketAddress(middle.host(),
        middle.port()), DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
      for (long other : new long[] {epoch - 1, epoch + 1}) {
        Frame put = toMiddle.call(MessageType.CHAIN_PUT, other, chainPut(1), DEADLINE);
        assertEquals(MessageType.STALE_RING, put.type(), "CHAIN_PUT of epoch " + other);
        assertEquals(epoch, put.epoch(), "the answer names the arc's epoch");
        Frame sync = toMiddle.call(MessageType.CHAIN_SYNC, other, new Frame.Payload()
            .addLong(chain.range().endInclusive()).addLong(0).toBytes(), DEADLINE);
        assertEquals(MessageType.STALE_RING, sync.type(), "CHAIN_SYNC of epoch " + other);
      }
      assertNull(valueAtTail(chain.tail(), epoch), "nothing was taken");
      assertEquals(MessageType.OK,
          toMiddle.call(MessageType.CHAIN_PUT, epoch, chainPut(1), DEADLINE).type());
    }
    assertArrayEquals(bytes("sent"), valueAtTail(chain.tail(), epoch),
        "taken on the same epoch, down to the tail");
  }

  @Test
  void copierQuestionFromAnotherEpoch_staleRing_soTheCopierAsksAgainSoon() throws Exception {
    Member tail = chain.tail();
    long epoch = cluster.ring.epoch();
    byte[] snapshotQuestion = new Frame.Payload().addLong(chain.range().endInclusive())
        .addBytes(bytes("b9")).toBytes();
    byte[] lastQuestion = new Frame.Payload().addLong(chain.range().endInclusive())
        .addBytes(bytes("b9")).addLong(1_000).toBytes(); // with a wait: refused at once still
    try (Connection toTail = Connection.open(new InetSocketAddress(tail.host(), tail.port()),
        DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
      for (byte type : new byte[] {MessageType.ARC_LAST, MessageType.ARC_SNAPSHOT}) {
        byte[] question = type == MessageType.ARC_LAST ? lastQuestion : snapshotQuestion;
        Frame ahead = toTail.call(type, epoch + 1, question, DEADLINE);
        assertEquals(MessageType.STALE_RING, ahead.type(), MessageType.name(type));
        assertEquals(epoch, ahead.epoch());
        // On its own epoch the tail answers by its chain: b9 copies nothing there.
        assertEquals(MessageType.REFUSED, toTail.call(type, epoch, question, DEADLINE).type(),
            MessageType.name(type));
      }
    }
  }

  private Backend middle() {
    return cluster.backends.get(chain.members().get(1).id());
  }

  private byte[] chainPut(long sequence) {
    return WriteId.NONE.addTo(new Frame.Payload().addLong(chain.range().endInclusive())
        .addBytes(KEY).addBytes(bytes("sent")).addLong(sequence)).toBytes();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
