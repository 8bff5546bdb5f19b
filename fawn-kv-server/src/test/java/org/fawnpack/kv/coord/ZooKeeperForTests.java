package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real ZooKeeper server in the test's JVM for each test ({@code @RegisterExtension}),
 * sessions to it (one per node, as each node's own process would have), and whatever the test
 * keeps open; after the test all are closed, newest first, then the server.
 */
final class ZooKeeperForTests implements BeforeEachCallback, AfterEachCallback {
  private TestingServer server;
  private final List<Closeable> open = new ArrayList<>();

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    server = new TestingServer(true);
  }

  CuratorFramework session() {
    CuratorFramework zk = CuratorFrameworkFactory.builder()
        .connectString(server.getConnectString()).sessionTimeoutMs(10_000)
        .connectionTimeoutMs(10_000).retryPolicy(new RetryNTimes(20, 100)).build();
    zk.start();
    open.add(zk);
    return zk;
  }

  <T extends Closeable> T keep(T node) {
    open.add(node);
    return node;
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    open.clear();
    server.close();
  }
}
