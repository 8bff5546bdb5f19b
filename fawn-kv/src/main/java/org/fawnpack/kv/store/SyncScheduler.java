package org.fawnpack.kv.store;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/** One daemon thread shared by all datastores of the JVM for the interval sync policy. */
final class SyncScheduler {

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
}
