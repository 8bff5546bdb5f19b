package org.fawnpack.kv.zookeeper;

import java.io.Closeable;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's ring in ZooKeeper: its key, made once by whoever asks first; the current epoch,
 * read with its znode version and replaced only by compare-and-set on that version, so two
 * coordinators can never both publish a next epoch; and a watch that hands every newer epoch
 * to back-ends and front-ends.
 */
public final class RingStore {
  private static final Logger LOG = LoggerFactory.getLogger(RingStore.class);
  private static final int RING_KEY_BYTES = 32;

  /** A ring as read, with the znode version a compare-and-set must name. */
  public record Versioned(Ring ring, int zkVersion) {}

  private final CuratorFramework zk;
  private final ClusterPaths paths;

  public RingStore(CuratorFramework zk, ClusterPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  public ClusterPaths paths() {
    return paths;
  }

  /** The cluster's ring key: read, or made now if no one made it yet (the first maker wins). */
  public RingHash ringHash() throws IOException {
    try {
      byte[] key = new byte[RING_KEY_BYTES];
      new SecureRandom().nextBytes(key);
      try {
        zk.create().creatingParentsIfNeeded().forPath(paths.ringKey(), key);
      } catch (KeeperException.NodeExistsException e) {
        key = zk.getData().forPath(paths.ringKey()); // another node made it first
      }
      return new RingHash(key);
    } catch (Exception e) {
      throw failure("read the ring key at " + paths.ringKey(), e);
    }
  }

  /** The current epoch, or empty before the coordinator made the first. */
  public Optional<Versioned> read(RingHash hash) throws IOException {
    return Znodes.read(zk, paths.ring(), "the ring").map(read -> new Versioned(
        RingCodec.decode(read.data(), hash, paths.ring()), read.version()));
  }

  /**
   * Publishes {@code next} if the stored ring is still at {@code expected} (empty: none yet).
   *
   * @return false when another coordinator changed it first: nothing written
   */
  public boolean publish(Ring next, Optional<Versioned> expected) throws IOException {
    return Znodes.compareAndSet(zk, paths.ring(), RingCodec.encode(next), expected.isEmpty()
        ? OptionalInt.empty() : OptionalInt.of(expected.get().zkVersion()),
        "ring epoch " + next.epoch());
  }

  /**
   * Calls {@code user} with the stored ring now (if any) and with every later epoch; a ring it
   * cannot decode is logged and skipped. Close the result to stop watching.
   */
  public Closeable watch(RingHash hash, Consumer<Ring> user) {
    return Znodes.watch(zk, paths.ring(), bytes -> {
      try {
        user.accept(RingCodec.decode(bytes, hash, paths.ring()));
      } catch (RuntimeException e) {
        LOG.error("Ring at {} not used: {}", paths.ring(), e.getMessage());
      }
    });
  }

  /**
   * Calls {@code connected} with true whenever this store's ZooKeeper connection is made or
   * made again, and with false when it is suspended or lost (a ring published meanwhile may be
   * unseen). Close the result to stop.
   */
  public Closeable followConnection(java.util.function.Consumer<Boolean> connected) {
    org.apache.curator.framework.state.ConnectionStateListener listener =
        (client, state) -> connected.accept(state.isConnected());
    zk.getConnectionStateListenable().addListener(listener);
    return () -> zk.getConnectionStateListenable().removeListener(listener);
  }

  /**
   * The published ring's epoch (-1 before there is one), read after a sync with ZooKeeper's
   * leader, so no epoch published before this call began is missed.
   */
  public long publishedEpoch(RingHash hash) throws IOException {
    java.util.concurrent.CompletableFuture<Integer> synced =
        new java.util.concurrent.CompletableFuture<>();
    try {
      zk.sync().inBackground((client, event) -> synced.complete(event.getResultCode()))
          .forPath(paths.ring());
      int code = synced.get(zk.getZookeeperClient().getConnectionTimeoutMs(),
          java.util.concurrent.TimeUnit.MILLISECONDS);
      if (code != 0) {
        throw new IOException("ZooKeeper refused a sync of " + paths.ring() + ": "
            + KeeperException.Code.get(code));
      }
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException("ZooKeeper did not answer a sync of " + paths.ring(), e);
    } catch (IOException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted syncing " + paths.ring(), e);
    } catch (Exception e) {
      throw failure("sync " + paths.ring(), e);
    }
    return read(hash).map(stored -> stored.ring().epoch()).orElse(-1L);
  }

  /** Whether this store's ZooKeeper connection is up now. */
  public boolean connected() {
    return zk.getZookeeperClient().isConnected();
  }

  private static IOException failure(String what, Exception e) {
    return Znodes.failure(what, e);
  }

}
