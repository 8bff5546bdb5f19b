package org.fawnpack.kv.store;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
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

  private static final int THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
  private static final ExecutorService EXECUTOR = create("fawn-ds-log-writer");
  /**
   * Group forces ({@link SyncDriver#whenDurable}) wait for the background writes above, so
   * they run on threads of their own: on the same pool they could take every thread and wait
   * for writes queued behind themselves.
   */
  private static final ExecutorService FORCERS = create("fawn-ds-group-force");

  private LogWriters() {}

  private static ExecutorService create(String prefix) {
    ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), daemonThreads(prefix));
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }

  /** Daemon threads named {@code prefix-1}, {@code prefix-2}, ...: they never hold a JVM up. */
  static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  static ExecutorService executor() {
    return EXECUTOR;
  }

  static ExecutorService forcers() {
    return FORCERS;
  }
}
