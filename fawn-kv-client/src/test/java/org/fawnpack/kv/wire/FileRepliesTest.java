package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FrameServer.Replies#sendWithFile}: a reply whose payload's tail comes from a file
 * (sent by the kernel on a plaintext connection) arrives as one frame holding the prefix and
 * exactly those bytes of the file, read here independently, in order among other replies.
 * TLS connections take the other path ({@code TlsTest}).
 */
class FileRepliesTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int MAX_FRAME = FileReplies.MAX_FRAME;

  @TempDir
  Path dir;

  @Test
  void pieces_arriveWhole_andInOrder_amongOtherReplies() throws Exception {
    Path file = dir.resolve("snapshot.fds");
    byte[] bytes = new byte[3 << 20];
    new Random(5).nextBytes(bytes);
    Files.write(file, bytes);
    Random random = new Random(6);
    try (FrameServer server = FileReplies.fileServer(file, SECRET);
        Connection c = Connection.open(server.address(), WAIT, MAX_FRAME, SECRET)) {
      List<CompletableFuture<Frame>> replies = new ArrayList<>();
      List<byte[]> wanted = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        if (i % 3 == 2) {
          byte[] echo = {(byte) i};
          replies.add(c.send(MessageType.PUT, 0, echo));
          wanted.add(echo);
        } else {
          long offset = random.nextInt(bytes.length);
          int count = random.nextInt((int) Math.min(1 << 20, bytes.length - offset) + 1);
          replies.add(c.send(MessageType.GET, 0, FileReplies.ask(offset, count)));
          wanted.add(FileReplies.expected(bytes, offset, count));
        }
      }
      for (int i = 0; i < replies.size(); i++) {
        assertArrayEquals(wanted.get(i), replies.get(i).get(10, TimeUnit.SECONDS).payload(),
            "reply " + i);
      }
    }
  }

  @Test
  void anEmptyPiece_isTheBarePrefix() throws Exception {
    Path file = dir.resolve("short.fds");
    Files.write(file, new byte[] {1, 2, 3});
    try (FrameServer server = FileReplies.fileServer(file, SECRET);
        Connection c = Connection.open(server.address(), WAIT, MAX_FRAME, SECRET)) {
      assertArrayEquals(new byte[] {7, 8, 9}, c.call(MessageType.GET, 0, FileReplies.ask(3, 0), WAIT)
          .payload());
      assertArrayEquals(new byte[] {7, 8, 9, 2, 3}, c.call(MessageType.GET, 0, FileReplies.ask(1, 2), WAIT)
          .payload());
    }
  }
}
