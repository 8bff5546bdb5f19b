package org.fawnpack.kv.store;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One daemon thread shared by all datastores of the JVM for the interval sync policy. */
final class SyncScheduler {

  private static final Logger LOG = LoggerFactory.getLogger(SyncScheduler.class);
  private static final ScheduledExecutorService EXECUTOR = create();

  private SyncScheduler() {}

  private static ScheduledExecutorService create() {
    ScheduledThreadPoolExecutor executor =
        new ScheduledThreadPoolExecutor(1, LogWriters.daemonThreads("fawn-ds-sync"));
    executor.setRemoveOnCancelPolicy(true);
    return executor;
  }

  static ScheduledExecutorService executor() {
    return EXECUTOR;
  }

  /**
   * The interval policy's background syncs of one datastore; null under other policies, and
   * for a datastore that shares a journal: its writes are durable by the journal's forces, and
   * its file is forced by writeback, by the journal when it seals a segment, by moves and by
   * close. Forcing it every interval as well cost a back-end of 15 arcs 150 forces a second on
   * one thread, beside the journal's own: closed-loop puts went 1.2× faster without them.
   */
  static ScheduledFuture<?> intervalSyncs(DatastoreConfig config, CurrentLog current,
      SyncDriver sync) {
    if (config.sync() != SyncPolicy.INTERVAL || config.journal() != null) {
      return null;
    }
    Runnable tick = () -> {
      if (current.isClosed()) {
        return;
      }
      String path = current.get().log().path().toString();
      try {
        sync.syncInBackground(path, current::isClosed);
      } catch (IllegalStateException e) {
        LOG.debug("{}: closed during a background sync", path);
      }
    };
    return EXECUTOR.scheduleWithFixedDelay(tick, config.syncIntervalMs(),
        config.syncIntervalMs(), TimeUnit.MILLISECONDS);
  }
}
