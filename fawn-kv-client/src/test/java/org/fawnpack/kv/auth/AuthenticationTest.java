package org.fawnpack.kv.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Connections prove the cluster secret both ways before any request: a client with another
 * secret, a peer that skips the handshake and a server that cannot prove the secret are all
 * refused, while the server goes on serving those that can; secret files others can read are
 * refused.
 */
class AuthenticationTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir
  Path dir;

  private static FrameServer echoServer(ClusterSecret secret) throws IOException {
    return new FrameServer("echo", new InetSocketAddress("127.0.0.1", 0), 1 << 16, secret,
        (request, replies) -> replies.send(MessageType.reply(request, MessageType.OK,
            request.payload()))).start();
  }

  @Test
  void connect_sameSecret_served_otherSecretOrNoHandshake_refused() throws Exception {
    ClusterSecret secret = ClusterSecret.generate();
    try (FrameServer server = echoServer(secret)) {
      IOException wrong = assertThrows(IOException.class, () -> Connection.open(
          server.address(), WAIT, 1 << 16, ClusterSecret.generate()));
      assertTrue(wrong.getMessage().contains("does not share this cluster secret"),
          wrong.getMessage());

      try (Socket raw = new Socket(server.address().getAddress(), server.address().getPort())) {
        raw.setSoTimeout(10_000);
        DataInputStream in = new DataInputStream(raw.getInputStream());
        Frame challenge = Frame.readFrom(in, 1 << 16);
        assertEquals(32, challenge.payload().length, "a 32-byte challenge first");
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        new Frame(MessageType.GET, 1, 0, new Frame.Payload().addBytes(new byte[] {1})
            .toBytes()).writeTo(out);
        out.flush();
        assertEquals(null, Frame.readFrom(in, 1 << 16), "a request before the proof: closed");
      }

      try (Connection good = Connection.open(server.address(), WAIT, 1 << 16, secret)) {
        Frame echo = good.call(MessageType.GET, 0, new byte[] {7}, WAIT);
        assertArrayEquals(new byte[] {7}, echo.payload(), "still serving proven peers");
      }
    }
  }

  @Test
  void connect_serverCannotProveTheSecret_refusedByTheClient() throws Exception {
    try (ServerSocket impostor = new ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      Thread server = new Thread(() -> {
        try (Socket s = impostor.accept()) {
          DataOutputStream out = new DataOutputStream(s.getOutputStream());
          DataInputStream in = new DataInputStream(s.getInputStream());
          new Frame((byte) 90, 0, 0, new byte[32]).writeTo(out);
          out.flush();
          Frame.readFrom(in, 1 << 16); // whatever the client proves, "accept" with garbage
          new Frame((byte) 92, 0, 0, new Frame.Payload().addBytes(new byte[32]).toBytes())
              .writeTo(out);
          out.flush();
          s.getInputStream().read();
        } catch (IOException e) {
          // the client hung up, as it should
        }
      });
      server.start();
      IOException e = assertThrows(IOException.class, () -> Connection.open(
          new InetSocketAddress(impostor.getInetAddress(), impostor.getLocalPort()), WAIT,
          1 << 16, ClusterSecret.generate()));
      assertTrue(e.getMessage().contains("the server did not prove the cluster secret"),
          e.getMessage());
      server.join(10_000);
    }
  }

  @Test
  void load_filesOthersCanReadOrTooShortOrMissing_refusedNamingTheFix() throws IOException {
    Path file = dir.resolve("secret");
    ClusterSecret made = ClusterSecret.loadOrCreate(file);
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    assertEquals(64, Files.size(file), "32 random bytes in hex");
    assertArrayEquals(made.hmacSha256(new byte[] {1}),
        ClusterSecret.loadOrCreate(file).hmacSha256(new byte[] {1}), "made once, then read");

    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    IOException loose = assertThrows(IOException.class, () -> ClusterSecret.load(file));
    assertTrue(loose.getMessage().contains("rw-r--r--") && loose.getMessage().contains(
        "chmod 600 " + file), loose.getMessage());

    Path shortFile = Files.writeString(dir.resolve("short"), "tiny",
        StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(shortFile, PosixFilePermissions.fromString("rw-------"));
    assertTrue(assertThrows(IOException.class, () -> ClusterSecret.load(shortFile))
        .getMessage().contains("at least 16 bytes"));
    assertTrue(assertThrows(IOException.class, () -> ClusterSecret.load(dir.resolve("none")))
        .getMessage().contains("does not exist"));
  }
}
