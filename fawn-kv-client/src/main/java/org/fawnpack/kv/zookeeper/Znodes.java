package org.fawnpack.kv.zookeeper;

import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The znode operations the coordination classes share: a read with the version a
 * compare-and-set must name, the compare-and-set itself, a watch of every new content, an
 * ephemeral report written, and the reports under one parent read.
 */
public final class Znodes {
  /** A znode's bytes and version. */
  public record Read(byte[] data, int version) {}

  private Znodes() {}

  /** The znode at {@code path}, or empty when there is none; {@code what} names it in errors. */
  public static Optional<Read> read(CuratorFramework zk, String path, String what) throws IOException {
    try {
      Stat stat = new Stat();
      byte[] bytes = zk.getData().storingStatIn(stat).forPath(path);
      return Optional.of(new Read(bytes, stat.getVersion()));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw failure("read " + what + " at " + path, e);
    }
  }

  /**
   * Writes {@code bytes} if the znode is still at {@code expected} (empty: it must not exist).
   *
   * @return false when another writer changed it first: nothing written
   */
  public static boolean compareAndSet(CuratorFramework zk, String path, byte[] bytes,
      OptionalInt expected, String what) throws IOException {
    try {
      if (expected.isEmpty()) {
        zk.create().creatingParentsIfNeeded().forPath(path, bytes);
      } else {
        zk.setData().withVersion(expected.getAsInt()).forPath(path, bytes);
      }
      return true;
    } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException e) {
      return false;
    } catch (Exception e) {
      throw failure("publish " + what + " at " + path, e);
    }
  }

  /** Hands {@code deliver} the znode's bytes now (if any) and on every change. */
  public static Closeable watch(CuratorFramework zk, String path, Consumer<byte[]> deliver) {
    CuratorCache cache = CuratorCache.build(zk, path, CuratorCache.Options.SINGLE_NODE_CACHE);
    Consumer<ChildData> node = data -> deliver.accept(data.getData());
    cache.listenable().addListener(CuratorCacheListener.builder()
        .forCreates(node)
        .forChanges((before, after) -> node.accept(after))
        .build());
    cache.start();
    return cache::close;
  }

  /** Creates or replaces the ephemeral znode at {@code path} (a report of this session). */
  public static void writeEphemeral(CuratorFramework zk, String path, byte[] data) throws IOException {
    try {
      zk.create().orSetData().creatingParentsIfNeeded()
          .withMode(org.apache.zookeeper.CreateMode.EPHEMERAL).forPath(path, data);
    } catch (Exception e) {
      throw failure("write " + path, e);
    }
  }

  /**
   * Each child of {@code parent} by name, with its bytes; a child that goes while listed is
   * left out, and no parent is no child.
   */
  public static java.util.Map<String, byte[]> children(CuratorFramework zk, String parent)
      throws IOException {
    java.util.Map<String, byte[]> all = new java.util.TreeMap<>();
    try {
      for (String name : zk.getChildren().forPath(parent)) {
        try {
          all.put(name, zk.getData().forPath(parent + "/" + name));
        } catch (KeeperException.NoNodeException gone) {
          // it went while listed: as if it had not been there
        }
      }
      return all;
    } catch (KeeperException.NoNodeException e) {
      return all;
    } catch (Exception e) {
      throw failure("list " + parent, e);
    }
  }

  public static IOException failure(String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new IOException("cannot " + what + " in ZooKeeper: " + e, e);
  }
}
