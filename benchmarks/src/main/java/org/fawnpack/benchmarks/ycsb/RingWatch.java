package org.fawnpack.benchmarks.ycsb;

import java.io.IOException;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.fawnpack.kv.zookeeper.ZooKeeperSessions;

/**
 * One ZooKeeper session and ring watch per JVM, shared by every YCSB thread's client that reads
 * from the tails; closed when the last one is cleaned up.
 */
final class RingWatch {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(RingWatch.class);
  private static RingWatch shared;
  private static int users;

  private final CuratorFramework zk;
  private final RingSource.Watched rings;

  private RingWatch(CuratorFramework zk, RingSource.Watched rings) {
    this.zk = zk;
    this.rings = rings;
  }

  static synchronized RingWatch acquire(String quorum, String cluster) throws IOException {
    if (shared == null) {
      CuratorFramework zk = ZooKeeperSessions.open(quorum, 10_000);
      try {
        shared = new RingWatch(zk, RingSource.watching(new RingStore(zk,
            new ClusterPaths(cluster))));
      } catch (IOException | RuntimeException e) {
        zk.close();
        throw e;
      }
    }
    users++;
    return shared;
  }

  static synchronized void release() {
    if (--users == 0 && shared != null) {
      try {
        shared.rings.close();
      } catch (IOException e) {
        LOG.debug("closing the ring watch: {}", e.toString()); // its session closes next
      } finally {
        shared.zk.close();
        shared = null;
      }
    }
  }

  RingSource source() {
    return rings;
  }
}
