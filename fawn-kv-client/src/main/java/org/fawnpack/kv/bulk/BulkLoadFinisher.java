package org.fawnpack.kv.bulk;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.zookeeper.BulkLoadStore;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes committed bulk loads whose driver died (a job's application master killed after
 * the commit point), so their arcs do not stay gated until an operator notices: every
 * front-end runs one, checking every {@link #CHECK_MS}. Two that finish the same load at once
 * do no harm: each step is safe to repeat ({@link BulkAttach#finish}).
 */
public final class BulkLoadFinisher implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(BulkLoadFinisher.class);
  static final long CHECK_MS = 5_000;

  private final String who;
  private final BulkLoadStore loads;
  private final BulkAttach driver;
  private final ScheduledExecutorService timer;

  public BulkLoadFinisher(String who, CuratorFramework zk, ClusterPaths paths,
      ConnectionPool pool) {
    this(who, zk, paths, pool, org.fawnpack.kv.time.Backoff.BULK_STEP);
  }

  /** As above, its driver pausing by {@code pauses} ({@code fawn.kv.backoff.bulk.*}). */
  public BulkLoadFinisher(String who, CuratorFramework zk, ClusterPaths paths,
      ConnectionPool pool, org.fawnpack.kv.time.Backoff pauses) {
    this.who = who;
    this.loads = new BulkLoadStore(zk, paths);
    this.driver = BulkDrivers.of(zk, paths, pool, Duration.ofMinutes(10), pauses);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-bulk-finisher-" + who);
      t.setDaemon(true);
      return t;
    });
  }

  /** Its driver waits for each answer as {@code waits} say ({@link BulkAttach#answersWithin}). */
  public BulkLoadFinisher answersWithin(org.fawnpack.kv.wire.Timeouts waits) {
    driver.answersWithin(waits);
    return this;
  }

  public BulkLoadFinisher start() {
    timer.scheduleWithFixedDelay(this::finishOrphans, CHECK_MS, CHECK_MS,
        TimeUnit.MILLISECONDS);
    return this;
  }

  private void finishOrphans() {
    try {
      for (Map.Entry<String, Set<Long>> load : loads.withoutDriver().entrySet()) {
        LOG.warn("{}: bulk load {} is committed and its driver is gone: finishing it", who,
            load.getKey());
        driver.finish(load.getKey(), load.getValue());
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: cannot finish the bulk loads whose driver died (again in {} ms): {}", who,
          CHECK_MS, e.getMessage());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
