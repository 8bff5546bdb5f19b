package org.fawnpack.kv.wire;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.fawnpack.kv.auth.ClusterSecret;

/** A server whose replies come from a file, for {@code FileRepliesTest} and {@code TlsTest}. */
public final class FileReplies {
  public static final int MAX_FRAME = 4 << 20;

  private FileReplies() {}

  /** A server answering GET (offset, count) from {@code file} after a 3-byte prefix. */
  public static FrameServer fileServer(Path file, ClusterSecret secret) throws IOException {
    return new FrameServer("file replies", new InetSocketAddress("127.0.0.1", 0), MAX_FRAME,
        secret, (request, replies) -> {
          if (request.type() != MessageType.GET) {
            replies.send(MessageType.reply(request, MessageType.OK, request.payload()));
            return;
          }
          ByteBuffer asked = ByteBuffer.wrap(request.payload());
          long offset = asked.getLong();
          int count = asked.getInt();
          replies.sendWithFile(MessageType.reply(request, MessageType.VALUE, new byte[0]),
              new byte[] {7, 8, 9}, file, offset, count);
        }).handleOnEventLoop(MessageType.GET).start();
  }

  public static byte[] ask(long offset, int count) {
    return ByteBuffer.allocate(12).putLong(offset).putInt(count).array();
  }

  public static byte[] expected(byte[] file, long offset, int count) {
    byte[] out = new byte[3 + count];
    out[0] = 7;
    out[1] = 8;
    out[2] = 9;
    System.arraycopy(file, (int) offset, out, 3, count);
    return out;
  }

}
