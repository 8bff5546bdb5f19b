package org.fawnpack.kv.store;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The daemon threads shared by all data logs of the JVM that write full append buffers to
 * their files and force them to the device in the background ({@link DataLog}). A log has at
 * most one write and one force queued at a time, so the pool's size bounds the I/O threads no
 * matter how many datastores are open.
 */
final class LogWriters {

  private static final int THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());
  private static final ExecutorService EXECUTOR = create();

  private LogWriters() {}

  private static ExecutorService create() {
    AtomicInteger n = new AtomicInteger();
    ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "fawn-ds-log-writer-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  static ExecutorService executor() {
    return EXECUTOR;
  }
}
