package org.fawnpack.kv.bulk;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.zookeeper.BulkLoadStore;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.fawnpack.kv.zookeeper.SliceStore;

/** A {@link BulkAttach} over a cluster's ZooKeeper state: its ring and its front-ends. */
public final class BulkDrivers {
  private BulkDrivers() {}

  /** A driver with {@code zk}'s view of the cluster, sending over {@code pool}. */
  public static BulkAttach of(CuratorFramework zk, ClusterPaths paths, ConnectionPool pool,
      Duration deadline) {
    return of(zk, paths, pool, deadline, Backoff.BULK_STEP);
  }

  /** As above, pausing by {@code pauses} ({@code fawn.kv.backoff.bulk.*}) between tries. */
  public static BulkAttach of(CuratorFramework zk, ClusterPaths paths, ConnectionPool pool,
      Duration deadline, Backoff pauses) {
    RingStore rings = new RingStore(zk, paths);
    SliceStore slices = new SliceStore(zk, paths);
    return new BulkAttach(new BulkLoadStore(zk, paths),
        () -> rings.read(rings.ringHash()).orElseThrow(() -> new java.io.IOException(
            "the FAWN-KV cluster has no ring in ZooKeeper (" + paths.ring() + ")")).ring(),
        () -> {
          List<Member> frontEnds = new ArrayList<>();
          for (SliceStore.Registered f : slices.registered()) {
            frontEnds.add(new Member(f.endpoint().name(), f.endpoint().host(),
                f.endpoint().port(), null));
          }
          return frontEnds;
        }, pool, deadline, pauses);
  }
}
