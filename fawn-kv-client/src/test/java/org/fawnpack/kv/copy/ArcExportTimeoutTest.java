package org.fawnpack.kv.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.ArcRelease;
import org.fawnpack.kv.wire.ArcSnapshot;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.Timeouts;
import org.junit.jupiter.api.Test;

/**
 * An offline export waits for each piece as long as the transfer class says, not a constant of
 * its own: against a real tail-shaped server that answers ARC_SNAPSHOT and never ARC_CHUNK, an
 * export with a short transfer wait fails naming it, and still releases the snapshot.
 */
class ArcExportTimeoutTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();

  @Test
  void pieceNotAnswered_failsAfterTheTransferWait_andReleasesTheSnapshot() throws Exception {
    LinkedBlockingQueue<Long> released = new LinkedBlockingQueue<>();
    try (FrameServer tail = new FrameServer("silent-tail", new InetSocketAddress("127.0.0.1", 0),
        1 << 20, SECRET, (request, replies) -> {
          if (request.type() == MessageType.ARC_SNAPSHOT) {
            replies.send(MessageType.reply(request, MessageType.VALUE,
                new ArcSnapshot(77, 4096, 0, 9, 0).encode()));
          } else if (request.type() == MessageType.ARC_RELEASE) {
            released.add(ArcRelease.decode(request).snapshot());
          } // ARC_CHUNK: never answered, as a hung tail
        }).start();
        Connection c = Connection.open(tail.address(), Duration.ofSeconds(10), 1 << 20,
            SECRET)) {
      Duration transfer = Duration.ofMillis(300);
      Timeouts waits = new Timeouts(Duration.ofSeconds(3), Duration.ofSeconds(10), transfer);
      IOException e = assertThrows(IOException.class, () -> ArcExport.export(c, 1,
          KeyRange.wholeRing(), "test", new ByteArrayOutputStream(),
          new ByteArrayOutputStream(), waits));
      assertTrue(e.getMessage().contains("no piece within 300 ms"), e.getMessage());
      assertEquals(77L, released.poll(10, TimeUnit.SECONDS), "the snapshot is released");
    }
  }
}
