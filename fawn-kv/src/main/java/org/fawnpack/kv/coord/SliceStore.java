package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.fawnpack.kv.slice.SliceCodec;
import org.fawnpack.kv.slice.SliceMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The slice map in ZooKeeper ({@code slices}, replaced only by compare-and-set on its znode
 * version, like the ring) and the front-ends' registrations ({@code frontends/<name>}: "host
 * port acked", where acked is the newest slice epoch the front-end has applied and drained).
 */
public final class SliceStore {
  private static final Logger LOG = LoggerFactory.getLogger(SliceStore.class);

  /** A map as read, with the znode version a compare-and-set must name. */
  public record Versioned(SliceMap map, int zkVersion) {}

  /** A live front-end as registered, and the newest slice epoch it has acknowledged. */
  public record Registered(SliceMap.Endpoint endpoint, long acked) {}

  private final CuratorFramework zk;
  private final ClusterPaths paths;

  public SliceStore(CuratorFramework zk, ClusterPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  public ClusterPaths paths() {
    return paths;
  }

  /** The current map, or empty before the first. */
  public Optional<Versioned> read() throws IOException {
    try {
      Stat stat = new Stat();
      byte[] bytes = zk.getData().storingStatIn(stat).forPath(paths.slices());
      return Optional.of(new Versioned(SliceCodec.decode(bytes, paths.slices()),
          stat.getVersion()));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw failure("read the slice map at " + paths.slices(), e);
    }
  }

  /** Publishes {@code next} if the stored map is still {@code expected}; false if not. */
  public boolean publish(SliceMap next, Optional<Versioned> expected) throws IOException {
    byte[] bytes = SliceCodec.encode(next);
    try {
      if (expected.isEmpty()) {
        zk.create().creatingParentsIfNeeded().forPath(paths.slices(), bytes);
      } else {
        zk.setData().withVersion(expected.get().zkVersion()).forPath(paths.slices(), bytes);
      }
      return true;
    } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException e) {
      return false;
    } catch (Exception e) {
      throw failure("publish slice epoch " + next.epoch() + " at " + paths.slices(), e);
    }
  }

  /** Every registered front-end (one that left while listed is left out). */
  public List<Registered> registered() throws IOException {
    List<Registered> all = new ArrayList<>();
    try {
      for (String name : zk.getChildren().forPath(paths.frontEnds())) {
        try {
          all.add(parse(name, zk.getData().forPath(paths.frontEnd(name))));
        } catch (KeeperException.NoNodeException e) {
          LOG.debug("front-end {} left while being listed", name);
        } catch (IllegalArgumentException e) {
          LOG.error("front-end registration {} left out: {}", paths.frontEnd(name),
              e.getMessage());
        }
      }
      return all;
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    } catch (Exception e) {
      throw failure("list front-ends at " + paths.frontEnds(), e);
    }
  }

  static byte[] registration(SliceMap.Endpoint self, long acked) {
    return (self.host() + " " + self.port() + " " + acked).getBytes(StandardCharsets.UTF_8);
  }

  static Registered parse(String name, byte[] data) {
    String[] words = new String(data, StandardCharsets.UTF_8).trim().split(" +");
    if (words.length != 3) {
      throw new IllegalArgumentException("expected 'host port acked-epoch', found '"
          + new String(data, StandardCharsets.UTF_8) + "'");
    }
    try {
      return new Registered(new SliceMap.Endpoint(name, words[0], Integer.parseInt(words[1])),
          Long.parseLong(words[2]));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a number in '"
          + new String(data, StandardCharsets.UTF_8) + "'", e);
    }
  }

  /** Calls {@code user} with the stored map now (if any) and every later one. */
  public Closeable watch(Consumer<SliceMap> user) {
    CuratorCache cache = CuratorCache.build(zk, paths.slices(),
        CuratorCache.Options.SINGLE_NODE_CACHE);
    Consumer<ChildData> deliver = node -> {
      try {
        user.accept(SliceCodec.decode(node.getData(), paths.slices()));
      } catch (RuntimeException e) {
        LOG.error("Slice map at {} not used: {}", paths.slices(), e.getMessage());
      }
    };
    cache.listenable().addListener(CuratorCacheListener.builder()
        .forCreates(deliver)
        .forChanges((before, after) -> deliver.accept(after))
        .build());
    cache.start();
    return cache::close;
  }

  static IOException failure(String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new IOException("cannot " + what + " in ZooKeeper: " + e, e);
  }
}
