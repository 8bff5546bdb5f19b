package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.SliceStore;
import org.fawnpack.kv.time.Backoff;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the slice map in step with the live front-ends. Every front-end runs one; one leads
 * (its own election, {@code slice-coordinator}) and changes the map only by compare-and-set.
 * The first map gives every registered front-end its share at once. When front-ends come or go
 * it publishes a handover to the live ones, in which moving buckets are served by nobody; once
 * every previous owner still registered has acknowledged that epoch (it serves by it alone, and
 * drained what it took before), it publishes the same owners settled, and they serve. A
 * previous owner whose registration went is not waited for: its session expired, and a
 * front-end serves nothing while its session is in doubt.
 */
public final class SliceCoordinator implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SliceCoordinator.class);

  private final SliceStore store;
  private final String name;
  private final LeaderLoop loop;
  private final CuratorCache registrations;

  public SliceCoordinator(CuratorFramework zk, ClusterPaths paths, String name) {
    this.store = new SliceStore(zk, paths);
    this.name = name;
    this.loop = new LeaderLoop(zk, paths.sliceCoordinator(), name, "slice coordinator " + name,
        this::check);
    this.registrations = CuratorCache.build(zk, paths.frontEnds());
  }

  /**
   * The pauses after a failed check ({@code fawn.kv.backoff.zookeeper.*}; 200 ms doubling to
   * a second unset); before {@link #start}.
   */
  public SliceCoordinator retryPauses(Backoff pauses) {
    loop.retryPauses(pauses);
    return this;
  }

  public SliceCoordinator start() throws IOException {
    registrations.listenable().addListener(CuratorCacheListener.builder()
        .forAll((type, before, after) -> loop.soon()).build());
    loop.start();
    registrations.start();
    return this;
  }

  public boolean isLeader() {
    return loop.isLeader();
  }

  private void check() throws IOException {
    List<SliceStore.Registered> live = store.registered();
    Optional<SliceStore.Versioned> current = store.read();
    if (live.isEmpty()) {
      return; // nobody to serve: the map stays as it is
    }
    List<SliceMap.Endpoint> endpoints = live.stream().map(SliceStore.Registered::endpoint)
        .toList();
    if (current.isEmpty()) {
      publish(SliceMap.first(new SecureRandom().nextLong(), endpoints), current,
          "the first front-ends registered");
      return;
    }
    SliceMap map = current.get().map();
    if (!map.settled()) {
      Map<String, Long> acked = live.stream().collect(Collectors.toMap(
          r -> r.endpoint().name(), SliceStore.Registered::acked));
      Set<String> waiting = new TreeSet<>();
      for (String previous : map.previous()) {
        if (acked.containsKey(previous) && acked.get(previous) < map.epoch()) {
          waiting.add(previous);
        }
      }
      if (waiting.isEmpty()) {
        publish(map.settle(), current, "every previous owner let go");
      } else {
        LOG.debug("slice coordinator {}: {} waits for {}", name, map, waiting);
      }
      return;
    }
    if (!new HashSet<>(map.owners()).equals(new HashSet<>(endpoints))) {
      publish(map.handOverTo(endpoints), current, "front-ends now " + endpoints);
    }
  }

  private void publish(SliceMap next, Optional<SliceStore.Versioned> current, String why)
      throws IOException {
    if (store.publish(next, current)) {
      LOG.info("slice coordinator {}: {}; published {}", name, why, next);
    }
    loop.soon(); // published or lost the race: either way look again
  }

  /** Leaves the election; closing twice is fine. */
  @Override
  public synchronized void close() throws IOException {
    if (loop.isClosed()) {
      return;
    }
    loop.close();
    registrations.close();
  }
}
