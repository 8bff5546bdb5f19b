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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.fawnpack.kv.slice.SliceMap;
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
  private static final long RETRY_AFTER_FAILURE_MS = 1_000;

  private final SliceStore store;
  private final String name;
  private final LeaderLatch latch;
  private final CuratorCache registrations;
  private final ScheduledExecutorService checks;

  public SliceCoordinator(CuratorFramework zk, ClusterPaths paths, String name) {
    this.store = new SliceStore(zk, paths);
    this.name = name;
    this.latch = new LeaderLatch(zk, paths.sliceCoordinator(), name);
    this.registrations = CuratorCache.build(zk, paths.frontEnds());
    this.checks = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-slice-coordinator-" + name);
      t.setDaemon(true);
      return t;
    });
  }

  public SliceCoordinator start() throws IOException {
    latch.addListener(new LeaderLatchListener() {
      @Override
      public void isLeader() {
        LOG.info("slice coordinator {} leads", name);
        checkSoon();
      }

      @Override
      public void notLeader() {
        LOG.info("slice coordinator {} no longer leads", name);
      }
    });
    registrations.listenable().addListener(CuratorCacheListener.builder()
        .forAll((type, before, after) -> checkSoon()).build());
    try {
      latch.start();
    } catch (Exception e) {
      throw new IOException("slice coordinator " + name + " cannot join the election: " + e, e);
    }
    registrations.start();
    return this;
  }

  public boolean isLeader() {
    return latch.hasLeadership();
  }

  private void checkSoon() {
    if (!checks.isShutdown()) {
      checks.execute(this::checkSafely);
    }
  }

  private void checkSafely() {
    try {
      check();
    } catch (IOException | RuntimeException e) {
      LOG.error("slice coordinator {}: check failed; trying again in {} ms", name,
          RETRY_AFTER_FAILURE_MS, e);
      if (!checks.isShutdown()) {
        checks.schedule(this::checkSafely, RETRY_AFTER_FAILURE_MS, TimeUnit.MILLISECONDS);
      }
    }
  }

  private void check() throws IOException {
    if (!latch.hasLeadership()) {
      return;
    }
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
    checkSoon(); // published or lost the race: either way look again
  }

  /** Leaves the election; closing twice is fine. */
  @Override
  public synchronized void close() throws IOException {
    if (checks.isShutdown()) {
      return;
    }
    checks.shutdownNow();
    registrations.close();
    latch.close();
  }
}
