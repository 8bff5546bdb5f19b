package org.fawnpack.kv.cluster;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault test on a fresh {@link ChildCluster} per test method. Its directory (the nodes' data
 * and logs) is deleted only when the test passes, so a failure leaves the logs to read.
 */
abstract class ChildClusterTest {
  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path dir;

  ChildCluster cluster;

  /** How many back-ends the cluster starts with (and waits for before the first ring). */
  abstract int backends();

  /** Whether each back-end is reached through a {@link LoopbackProxy} (default: no). */
  boolean proxied() {
    return false;
  }

  /** Settings of back-end {@code b<i>} of its own, beside the cluster's (default: none). */
  java.util.Map<String, String> ownSettings(int i) {
    return java.util.Map.of();
  }

  @BeforeEach
  void startCluster() throws Exception {
    cluster = new ChildCluster(dir, backends(), proxied(), this::ownSettings);
  }

  @AfterEach
  void stopCluster() throws IOException {
    if (cluster != null) {
      cluster.close();
    }
  }
}
