package org.fawnpack.kv.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.time.Backoff;
import org.junit.jupiter.api.Test;

/**
 * A client's builder refuses bad settings as they are given, naming them, and its connect
 * reaches for the front-ends it was given (none listening here: refused, naming the address).
 */
class FawnKvClientBuilderTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();

  @Test
  void badSettings_refusedAsGiven() {
    List<InetSocketAddress> one = List.of(new InetSocketAddress("127.0.0.1", 1));
    assertThrows(IllegalArgumentException.class, () -> FawnKvClient.builder(List.of(), SECRET));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> FawnKvClient.builder(one, SECRET).deadline(Duration.ZERO)).getMessage()
        .contains("deadline"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> FawnKvClient.builder(one, SECRET).tryTimeout(Duration.ofMillis(-1))).getMessage()
        .contains("try's timeout"));
    assertThrows(NullPointerException.class,
        () -> FawnKvClient.builder(one, SECRET).retryPauses(null));
    assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new Backoff(20, 10));
  }

  @Test
  void connect_noFrontEndListening_refusedNamingIt() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    InetSocketAddress nobody = new InetSocketAddress("127.0.0.1", port);
    KvException e = assertThrows(KvException.class, () -> FawnKvClient.builder(
        List.of(nobody), SECRET).deadline(Duration.ofSeconds(2))
        .retryPauses(new Backoff(1, 4)).connect());
    assertTrue(e.refused(), e.getMessage());
    assertTrue(e.getMessage().contains(String.valueOf(port)), e.getMessage());
  }
}
