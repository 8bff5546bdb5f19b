package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.fawnpack.kv.zookeeper.ZooKeeperSessions;

/**
 * A cluster's ring followed in ZooKeeper on a session of the client's own, for a client that
 * sends gets straight to the tails; closing it ends the watch, then the session.
 */
final class FollowedRing implements RingSource, Closeable {
  private final CuratorFramework session;
  private final RingSource.Watched watched;

  private FollowedRing(CuratorFramework session, RingSource.Watched watched) {
    this.session = session;
    this.watched = watched;
  }

  /**
   * Follows the ring of {@code cluster} ({@code fawn.kv.cluster}) at {@code quorum}, on a session
   * with the default {@code fawn.kv.zookeeper.session-timeout-ms}.
   *
   * @throws IOException naming the quorum when ZooKeeper cannot be reached, or the cluster when
   *     it has no ring key (no such cluster, or its first back-end has not started)
   */
  static FollowedRing open(String quorum, String cluster) throws IOException {
    CuratorFramework session = ZooKeeperSessions.open(quorum,
        KvKeys.ZOOKEEPER_SESSION_TIMEOUT_MS.defaultValue());
    try {
      ClusterPaths paths = new ClusterPaths(cluster);
      // RingStore.ringHash makes a missing ring key, as the first node must; a client naming
      // a cluster that is not there must not, and would follow no ring at all.
      if (!exists(session, paths.ringKey())) {
        throw new IOException("no FAWN-KV cluster \"" + cluster + "\" at ZooKeeper " + quorum
            + ": " + paths.ringKey() + " is missing (check fawn.kv.cluster, or start a"
            + " back-end first)");
      }
      return new FollowedRing(session, RingSource.watching(new RingStore(session, paths)));
    } catch (IOException | RuntimeException e) {
      session.close();
      throw e;
    }
  }

  private static boolean exists(CuratorFramework session, String path) throws IOException {
    try {
      return session.checkExists().forPath(path) != null;
    } catch (Exception e) {
      throw new IOException("cannot read " + path + " in ZooKeeper: " + e.getMessage(), e);
    }
  }

  @Override
  public Ring current() {
    return watched.current();
  }

  @Override
  public boolean upToDate() {
    return watched.upToDate();
  }

  @Override
  public void awaitNewer(long seen, long millis) throws InterruptedException {
    watched.awaitNewer(seen, millis);
  }

  @Override
  public void close() throws IOException {
    try {
      watched.close();
    } finally {
      session.close();
    }
  }
}
