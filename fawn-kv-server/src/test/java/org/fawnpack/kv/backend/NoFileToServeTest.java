package org.fawnpack.kv.backend;

import org.fawnpack.kv.wire.ProtocolLimits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tail back from a crash serves none of its old files until it has copied them afresh,
 * while the ring still names it: a get of such an arc is an expected state, answered REFUSED
 * (applied nowhere, so the client asks again) naming the arc, not a handler failure.
 */
class NoFileToServeTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final RingHash HASH =
      new RingHash("no file test ring key".getBytes(StandardCharsets.UTF_8));
  private static final DatastoreConfig CONFIG = DatastoreConfig.builder().expectedKeys(64).build();

  @TempDir
  Path dir;

  @Test
  void get_tailBackFromACrash_refusedNamingTheArc() throws IOException {
    Path data = dir.resolve("b0");
    try (Backend first = open(data)) {
      first.useRing(Ring.at(1, HASH, 2, 1, List.of(first.member()))); // opens its arc files
    }
    Files.delete(data.resolve(CleanShutdown.MARKER)); // as if it had been killed

    try (Backend back = open(data)) {
      assertTrue(back.crashedBefore());
      Ring ring = Ring.at(2, HASH, 2, 1, List.of(back.member())); // still names it everywhere
      back.useRing(ring);
      byte[] key = "k".getBytes(StandardCharsets.UTF_8);
      Member tail = ring.chainForKey(key).tail();
      assertEquals(back.member(), tail);
      try (Connection toTail = Connection.open(new InetSocketAddress(tail.host(), tail.port()),
          DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
        for (int i = 0; i < 2; i++) { // refused each time, logged once
          Frame answer = toTail.call(MessageType.GET, ring.epoch(),
              new Frame.Payload().addBytes(key).toBytes(), DEADLINE);
          String message = MessageType.messageOf(answer);
          assertEquals(MessageType.REFUSED, answer.type(), message);
          assertTrue(message.contains("backend b0 has no file to serve "
              + ring.chainForKey(key).range() + " in epoch 2 (back from a crash"), message);
        }
      }
    }
  }

  private static Backend open(Path data) throws IOException {
    return Backend.open("b0", new InetSocketAddress("127.0.0.1", 0), data, CONFIG, SECRET);
  }
}
