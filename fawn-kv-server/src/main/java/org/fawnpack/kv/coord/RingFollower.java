package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.zookeeper.RingStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Hands every ring epoch stored in ZooKeeper to a back-end or a front-end. */
public final class RingFollower {
  private static final Logger LOG = LoggerFactory.getLogger(RingFollower.class);

  /** Something that serves by a ring: it ignores epochs older than the one it has. */
  public interface RingUser {
    void useRing(Ring ring) throws IOException;
  }

  private RingFollower() {}

  /** Follows the cluster's ring from now on; close the result to stop. */
  public static Closeable follow(RingStore store, String who, RingUser user) throws IOException {
    RingHash hash = store.ringHash();
    return store.watch(hash, ring -> {
      try {
        user.useRing(ring);
      } catch (IOException | RuntimeException e) {
        LOG.error("{} cannot use {}", who, ring, e);
      }
    });
  }
}
