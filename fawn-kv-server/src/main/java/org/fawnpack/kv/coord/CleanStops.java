package org.fawnpack.kv.coord;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.fawnpack.kv.zookeeper.ClusterPaths;

/**
 * The coordinator's view of back-ends that stopped cleanly ({@code stopped/<id>}, left by
 * {@link BackendRegistration#close}): such a back-end synced its files, so if it registers
 * again within the grace period (a restart, an upgrade) it keeps its place; otherwise it is
 * marked down like any departed member. The grace is counted from when this coordinator first
 * saw the mark, on its own clock. Used from the coordinator's one check thread.
 */
final class CleanStops {
  private final CuratorFramework zk;
  private final ClusterPaths paths;
  private final Map<String, Long> firstSeenNanos = new HashMap<>();
  private final Set<String> waitedFor = new java.util.HashSet<>();

  CleanStops(CuratorFramework zk, ClusterPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  /**
   * The ids with a clean-stop mark; the marks of {@code registered} back-ends (they are back)
   * are removed.
   */
  Set<String> read(Set<String> registered) throws IOException {
    Set<String> stopped = new TreeSet<>();
    try {
      List<String> ids = zk.getChildren().forPath(paths.stopped());
      for (String id : ids) {
        if (registered.contains(id)) {
          delete(id);
        } else {
          stopped.add(id);
          firstSeenNanos.putIfAbsent(id, System.nanoTime());
        }
      }
    } catch (KeeperException.NoNodeException none) {
      return stopped;
    } catch (Exception e) {
      throw failure("cannot read " + paths.stopped(), e);
    }
    firstSeenNanos.keySet().retainAll(stopped);
    waitedFor.retainAll(stopped);
    return stopped;
  }

  /** How much of {@code grace} is left for back-end {@code id} to register again. */
  long graceLeftMs(String id, Duration grace) {
    long seen = firstSeenNanos.getOrDefault(id, System.nanoTime());
    return grace.toMillis() - (System.nanoTime() - seen) / 1_000_000;
  }

  /** True the first time the coordinator waits for {@code id} (it then schedules a look). */
  boolean firstWait(String id) {
    return waitedFor.add(id);
  }

  /** These were marked down: their marks go. */
  void forget(Set<String> ids) throws IOException {
    for (String id : ids) {
      delete(id);
      firstSeenNanos.remove(id);
      waitedFor.remove(id);
    }
  }

  private void delete(String id) throws IOException {
    try {
      zk.delete().forPath(paths.stopped(id));
    } catch (KeeperException.NoNodeException gone) {
      // removed already
    } catch (Exception e) {
      throw failure("cannot remove " + paths.stopped(id), e);
    }
  }

  private static IOException failure(String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new IOException(what + ": " + e, e);
  }
}
