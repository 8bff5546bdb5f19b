package org.fawnpack.kv.zookeeper;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** Opens the ZooKeeper sessions of nodes, commands and MapReduce tasks alike. */
public final class ZooKeeperSessions {
  private ZooKeeperSessions() {}

  /** A started session, connected within 30 s, or an error naming the quorum. */
  public static CuratorFramework open(String quorum, int sessionTimeoutMs) throws IOException {
    CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(quorum)
        .sessionTimeoutMs(sessionTimeoutMs).connectionTimeoutMs(10_000)
        .retryPolicy(new ExponentialBackoffRetry(200, 10)).build();
    zk.start();
    try {
      if (!zk.blockUntilConnected(30, TimeUnit.SECONDS)) {
        zk.close();
        throw new IOException("cannot reach ZooKeeper at " + quorum + " within 30 s");
      }
    } catch (InterruptedException e) {
      zk.close();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted connecting to ZooKeeper at " + quorum, e);
    }
    return zk;
  }
}
