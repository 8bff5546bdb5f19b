package org.fawnpack.kv.zookeeper;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
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
    return Znodes.read(zk, paths.slices(), "the slice map").map(read -> new Versioned(
        SliceCodec.decode(read.data(), paths.slices()), read.version()));
  }

  /** Publishes {@code next} if the stored map is still {@code expected}; false if not. */
  public boolean publish(SliceMap next, Optional<Versioned> expected) throws IOException {
    return Znodes.compareAndSet(zk, paths.slices(), SliceCodec.encode(next), expected.isEmpty()
        ? OptionalInt.empty() : OptionalInt.of(expected.get().zkVersion()),
        "slice epoch " + next.epoch());
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

  public static byte[] registration(SliceMap.Endpoint self, long acked) {
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
    return Znodes.watch(zk, paths.slices(), bytes -> {
      try {
        user.accept(SliceCodec.decode(bytes, paths.slices()));
      } catch (RuntimeException e) {
        LOG.error("Slice map at {} not used: {}", paths.slices(), e.getMessage());
      }
    });
  }

  public static IOException failure(String what, Exception e) {
    return Znodes.failure(what, e);
  }
}
