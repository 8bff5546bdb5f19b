package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.auth.TestTlsStores;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster with TLS on: a front-end and a chain of three back-ends whose every connection
 * (client to front-end, front-end to heads and tails, head to middle to tail) runs inside TLS.
 * Puts, overwrites, deletes and gets of many keys come back as a model of the store says; a
 * client without TLS gets nothing.
 */
class TlsClusterTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir
  Path dir;

  @Test
  void everyConnectionInTls_putsAndGets_matchAModel_plaintextClientRefused() throws Exception {
    Path stores = Files.createDirectories(dir.resolve("stores"));
    ClusterSecret plain = ClusterSecret.generate();
    ClusterSecret tls = plain.withTls(TestTlsStores.make(stores));
    try (InProcessCluster cluster = new InProcessCluster(dir.resolve("data"), "tls test ring key", 3,
        tls); FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, tls)) {
      Map<String, String> model = new HashMap<>();
      java.util.Random random = new java.util.Random(7);
      for (int i = 0; i < 300; i++) {
        String key = "k" + random.nextInt(60);
        if (random.nextInt(5) == 0) {
          kv.delete(bytes(key));
          model.remove(key);
        } else {
          String value = "v" + i;
          kv.put(bytes(key), bytes(value));
          model.put(key, value);
        }
      }
      for (int k = 0; k < 60; k++) {
        String value = model.get("k" + k);
        byte[] read = kv.get(bytes("k" + k));
        if (value == null) {
          assertNull(read, "k" + k);
        } else {
          assertArrayEquals(bytes(value), read, "k" + k);
        }
      }
      assertThrows(KvException.class, () -> {
        try (FawnKvClient withoutTls = FawnKvClient.connect(cluster.frontEnd.address(),
            Duration.ofSeconds(2), plain)) {
          withoutTls.get(bytes("k1"));
        }
      });
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
