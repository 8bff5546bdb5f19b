package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A back-end's dispatch by {@code wire.Verb}'s table: a type it does not know (a newer peer's)
 * and a request only front-ends answer are refused by name, applied nowhere; a routed request
 * of another ring epoch is answered STALE_RING with the back-end's; a chain message is not
 * (its arc's chain epoch is checked instead).
 */
class VerbDispatchTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final RingHash HASH =
      new RingHash("verb dispatch test ring key".getBytes(StandardCharsets.UTF_8));

  @TempDir
  Path dir;

  @Test
  void unknownAndFrontEndVerbs_refusedByName_routedOfAnotherEpoch_staleRing() throws IOException {
    try (Backend backend = Backend.open("b0", new InetSocketAddress("127.0.0.1", 0),
        dir.resolve("b0"), DatastoreConfig.builder().expectedKeys(64).build(), SECRET)) {
      Ring ring = Ring.at(3, HASH, 2, 1, List.of(backend.member()));
      backend.useRing(ring);
      try (Connection c = Connection.open(new InetSocketAddress("127.0.0.1",
          backend.member().port()), DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
        Frame unknown = c.call((byte) 63, ring.epoch(), new byte[0], DEADLINE);
        assertEquals(MessageType.REFUSED, unknown.type());
        assertEquals("backend b0 serves no type 63", MessageType.messageOf(unknown));

        Frame slices = c.call(MessageType.SLICES, ring.epoch(), new byte[0], DEADLINE);
        assertEquals(MessageType.REFUSED, slices.type());
        assertEquals("backend b0 serves no SLICES", MessageType.messageOf(slices));

        byte[] key = new Frame.Payload().addBytes("k".getBytes(StandardCharsets.UTF_8))
            .toBytes();
        Frame stale = c.call(MessageType.GET, ring.epoch() - 1, key, DEADLINE);
        assertEquals(MessageType.STALE_RING, stale.type());
        assertEquals(ring.epoch(), stale.epoch());

        // Not ring-checked: STATS of any epoch is answered.
        Frame stats = c.call(MessageType.STATS, ring.epoch() + 5, new byte[0], DEADLINE);
        assertEquals(MessageType.VALUE, stats.type());
        assertTrue(stats.payload().length > 0);
      }
    }
  }
}
