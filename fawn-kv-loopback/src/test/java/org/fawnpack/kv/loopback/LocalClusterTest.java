package org.fawnpack.kv.loopback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.client.FawnKvClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fawn kv local} run twice on one directory: the second run is a new cluster that
 * serves (the first one's ZooKeeper would have brought back a ring of back-ends on other
 * ports); a directory it did not make is refused, not emptied.
 */
class LocalClusterTest {
  @TempDir
  Path dir;

  @Test
  void start_twiceOnOneDirectory_secondIsANewClusterThatServes() throws Exception {
    Path clusterDir = dir.resolve("local");
    Path secretFile = dir.resolve("secret");
    Map<String, String> settings = Map.of("fawn.kv.secret-file", secretFile.toString());
    byte[] key = "left from the first run".getBytes(StandardCharsets.UTF_8);
    try (LocalCluster first = LocalCluster.start(settings, 3, 1, clusterDir,
        Duration.ofSeconds(60));
        FawnKvClient kv = FawnKvClient.connect(first.frontEndAddresses().get(0),
            Duration.ofSeconds(15), ClusterSecret.load(secretFile))) {
      kv.put(key, key);
    }
    try (LocalCluster second = LocalCluster.start(settings, 3, 1, clusterDir,
        Duration.ofSeconds(60));
        FawnKvClient kv = FawnKvClient.connect(second.frontEndAddresses().get(0),
            Duration.ofSeconds(15), ClusterSecret.load(secretFile))) {
      assertNull(kv.get(key), "a new cluster");
      kv.put(key, "second".getBytes(StandardCharsets.UTF_8));
      assertArrayEquals("second".getBytes(StandardCharsets.UTF_8), kv.get(key));
    }
  }

  @Test
  void start_onADirectoryItDidNotMake_refusedAndLeftAlone() throws IOException {
    Path someoneElses = Files.createDirectories(dir.resolve("data"));
    Files.writeString(someoneElses.resolve("precious.txt"), "keep me");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> LocalCluster.start(Map.of("fawn.kv.secret-file", dir.resolve("secret")
            .toString()), 3, 1, someoneElses, Duration.ofSeconds(60)));
    assertTrue(e.getMessage().contains(someoneElses + " is not empty"), e.getMessage());
    assertTrue(Files.exists(someoneElses.resolve("precious.txt")));
  }
}
