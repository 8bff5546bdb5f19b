package org.fawnpack.kv.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.kv.config.KvTlsKeys;
import org.fawnpack.kv.wire.BlockingConnection;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on every connection, with stores made by the JDK's own keytool: peers with the cluster's
 * certificate are served over the event-loop and the blocking connections alike; a plaintext
 * peer, a peer with a certificate the trust store does not hold, and a TLS peer of a plaintext
 * server are refused, each naming why; the keys refuse an unset or unreadable store by name.
 */
class TlsTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final char[] PASSWORD = TestTlsStores.PASSWORD.toCharArray();

  @TempDir
  static Path dir;

  private static TlsCredentials cluster;
  private static TlsCredentials stranger;

  @BeforeAll
  static void makeStores() throws Exception {
    cluster = TestTlsStores.make(dir);
    stranger = TestTlsStores.load(dir, "stranger.p12");
  }

  private static FrameServer echo(ClusterSecret secret) throws IOException {
    return new FrameServer("tls echo", new InetSocketAddress("127.0.0.1", 0), 1 << 16, secret,
        (request, replies) -> replies.send(MessageType.reply(request, MessageType.OK,
            request.payload()))).handleOnEventLoop(MessageType.GET).start();
  }

  @Test
  void certifiedPeers_areServed_overBothKindsOfConnection() throws Exception {
    ClusterSecret tls = SECRET.withTls(cluster);
    try (FrameServer server = echo(tls);
        Connection c = Connection.open(server.address(), WAIT, 1 << 16, tls);
        BlockingConnection b = BlockingConnection.open(server.address(), WAIT, 1 << 16, tls)) {
      assertArrayEquals(new byte[] {1}, c.call(MessageType.GET, 0, new byte[] {1}, WAIT)
          .payload());
      assertArrayEquals(new byte[] {2}, b.call(MessageType.PUT, 0, new byte[] {2}, WAIT)
          .payload());
    }
  }

  /** A reply from a file cannot go by sendfile through TLS: it is read and encrypted. */
  @Test
  void fileReplies_overTls_arriveWhole() throws Exception {
    ClusterSecret tls = SECRET.withTls(cluster);
    Path file = dir.resolve("tls-snapshot.fds");
    byte[] bytes = new byte[1 << 20];
    new java.util.Random(9).nextBytes(bytes);
    java.nio.file.Files.write(file, bytes);
    try (FrameServer server = org.fawnpack.kv.wire.FileReplies.fileServer(file, tls);
        Connection c = Connection.open(server.address(), WAIT, 4 << 20, tls)) {
      assertArrayEquals(org.fawnpack.kv.wire.FileReplies.expected(bytes, 1000, 500_000),
          c.call(MessageType.GET, 0, org.fawnpack.kv.wire.FileReplies.ask(1000, 500_000), WAIT)
              .payload());
    }
  }

  @Test
  void plaintextPeer_wrongCertificate_orPlaintextServer_refusedByName() throws Exception {
    try (FrameServer server = echo(SECRET.withTls(cluster))) {
      // A plaintext peer's first bytes are not a TLS record: hung up on at once.
      try (Socket raw = new Socket()) {
        raw.connect(server.address(), 10_000);
        raw.setSoTimeout(10_000);
        DataOutputStream out = new DataOutputStream(raw.getOutputStream());
        new Frame(MessageType.GET, 1, 0, new byte[] {1}).writeTo(out);
        out.flush();
        assertEquals(-1, raw.getInputStream().read(), "closed, never served");
      }
      IOException plain = assertThrows(IOException.class, () -> Connection.open(
          server.address(), Duration.ofMillis(800), 1 << 16, SECRET));
      assertTrue(plain.getMessage().contains("TLS on and this side not"), plain.getMessage());

      IOException stranger = assertThrows(IOException.class, () -> Connection.open(
          server.address(), WAIT, 1 << 16, SECRET.withTls(TlsTest.stranger)));
      assertTrue(stranger.getMessage().contains("TLS handshake failed"), stranger.getMessage());
      IOException blocking = assertThrows(IOException.class, () -> BlockingConnection.open(
          server.address(), WAIT, 1 << 16, SECRET.withTls(TlsTest.stranger)).call(
              MessageType.GET, 0, new byte[] {1}, WAIT));
      assertTrue(blocking.getMessage().contains("TLS handshake failed"), blocking.getMessage());
    }
    try (FrameServer plaintext = echo(SECRET)) {
      IOException e = assertThrows(IOException.class, () -> Connection.open(
          plaintext.address(), WAIT, 1 << 16, SECRET.withTls(cluster)));
      assertTrue(e.getMessage().contains("does not speak TLS"), e.getMessage());
    }
  }

  @Test
  void keys_unsetOrUnreadableStore_refusedNamingTheKey() {
    assertEquals(null, KvTlsKeys.credentials(Map.<String, String>of()::get), "off by default");
    InvalidConfigValueException unset = assertThrows(InvalidConfigValueException.class,
        () -> KvTlsKeys.credentials(Map.of("fawn.kv.tls.enabled", "true")::get));
    assertTrue(unset.getMessage().contains("fawn.kv.tls.keystore.location"),
        unset.getMessage());
    Map<String, String> wrongPassword = Map.of("fawn.kv.tls.enabled", "true",
        "fawn.kv.tls.keystore.location", dir.resolve("node.p12").toString(),
        "fawn.kv.tls.keystore.password", "not-it",
        "fawn.kv.tls.truststore.location", dir.resolve("trust.p12").toString(),
        "fawn.kv.tls.truststore.password", new String(PASSWORD));
    InvalidConfigValueException wrong = assertThrows(InvalidConfigValueException.class,
        () -> KvTlsKeys.credentials(wrongPassword::get));
    assertTrue(wrong.getMessage().contains("fawn.kv.tls.keystore.location")
        && wrong.getMessage().contains("node.p12"), wrong.getMessage());
    Map<String, String> right = new java.util.HashMap<>(wrongPassword);
    right.put("fawn.kv.tls.keystore.password", new String(PASSWORD));
    Map<String, String> noTrust = new java.util.HashMap<>(right);
    noTrust.put("fawn.kv.tls.truststore.location", dir.resolve("absent.p12").toString());
    InvalidConfigValueException trust = assertThrows(InvalidConfigValueException.class,
        () -> KvTlsKeys.credentials(noTrust::get));
    assertTrue(trust.getMessage().contains("fawn.kv.tls.truststore.location")
        && trust.getMessage().contains("absent.p12"), trust.getMessage());
    assertTrue(KvTlsKeys.credentials(right::get) != null);
  }
}
