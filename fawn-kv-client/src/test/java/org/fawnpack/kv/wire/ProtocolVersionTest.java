package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import org.fawnpack.kv.auth.ClusterSecret;
import org.junit.jupiter.api.Test;

/**
 * A peer of another protocol version is refused by name (the server logs it too: "refused the
 * connection from ...: protocol version 2, this node speaks 1"). The frames are written here
 * by hand, as a node of another release would write them (length, version, type, request id,
 * epoch, payload), over real loopback sockets.
 */
class ProtocolVersionTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final byte OTHER_VERSION = Frame.VERSION + 1;

  private static void writeFrame(DataOutputStream out, byte version, byte type, byte[] payload)
      throws IOException {
    out.writeInt(1 + 1 + 8 + 8 + payload.length);
    out.writeByte(version);
    out.writeByte(type);
    out.writeLong(0);
    out.writeLong(0);
    out.write(payload);
    out.flush();
  }

  private static String messages(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append(" / ");
    }
    return all.toString();
  }

  @Test
  void server_ofAnotherVersion_isRefusedNamingBothVersions() throws Exception {
    try (ServerSocket listener = new ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      Thread peer = new Thread(() -> {
        try (Socket s = listener.accept()) {
          writeFrame(new DataOutputStream(s.getOutputStream()), OTHER_VERSION,
              Handshake.CHALLENGE, new byte[Handshake.NONCE_BYTES]);
          s.getInputStream().read(); // until the client hangs up
        } catch (IOException e) {
          // the client closed first: what this test waits for
        }
      });
      peer.start();
      InetSocketAddress address = new InetSocketAddress("127.0.0.1", listener.getLocalPort());
      IOException e = assertThrows(IOException.class,
          () -> Connection.open(address, WAIT, 1 << 20, SECRET).close());
      assertTrue(e.getMessage().contains("cannot connect to " + address), e.getMessage());
      String said = messages(e);
      assertTrue(said.contains("protocol version " + OTHER_VERSION + ", this node speaks "
          + Frame.VERSION), said);
      peer.join(WAIT.toMillis());
    }
  }

  @Test
  void client_ofAnotherVersion_isCutOffBeforeAnyRequest() throws Exception {
    java.util.concurrent.atomic.AtomicInteger handled =
        new java.util.concurrent.atomic.AtomicInteger();
    try (FrameServer server = new FrameServer("versions", new InetSocketAddress("127.0.0.1", 0),
        1 << 20, SECRET, (request, replies) -> handled.incrementAndGet()).start();
        Socket s = new Socket(server.address().getAddress(), server.address().getPort())) {
      s.setSoTimeout((int) WAIT.toMillis());
      DataInputStream in = new DataInputStream(s.getInputStream());
      Frame challenge = Frame.readFrom(in, Handshake.MAX_FRAME_BYTES);
      assertEquals(Handshake.CHALLENGE, challenge.type());
      writeFrame(new DataOutputStream(s.getOutputStream()), OTHER_VERSION, Handshake.RESPONSE,
          new byte[Handshake.NONCE_BYTES + 4 + 32]);
      assertEquals(-1, in.read(), "the server hangs up on a frame of another version");
      assertEquals(0, handled.get());
    }
  }
}
