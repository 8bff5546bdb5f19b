package org.fawnpack.kv.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A command's wait for the coordinator, woken by ZooKeeper watches on what it waits for (the
 * ring, the command's own request) instead of looking every 200 ms. The caller reads the state
 * itself before each wait; a change between that read and the wait is not lost (it leaves a
 * permit). A watch event missed across a reconnect is covered by a look at least every
 * {@link #LOOK_AT_LEAST_EVERY_MS}.
 */
final class ChangeWait implements Closeable {
  static final long LOOK_AT_LEAST_EVERY_MS = 5_000;

  private final Semaphore changed = new Semaphore(0);
  private final List<Closeable> watches = new ArrayList<>();
  private final long deadline;
  private final long lookEveryNanos;

  /** A wait that ends {@code timeoutSeconds} from now. */
  ChangeWait(int timeoutSeconds) {
    this(timeoutSeconds, LOOK_AT_LEAST_EVERY_MS);
  }

  /** As {@link #ChangeWait(int)}, looking at least every {@code lookEveryMs} (tests). */
  ChangeWait(int timeoutSeconds, long lookEveryMs) {
    this.deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    this.lookEveryNanos = TimeUnit.MILLISECONDS.toNanos(lookEveryMs);
  }

  /** Adds a watch, given the callback it is to run on every change. */
  ChangeWait watching(Function<Runnable, Closeable> watch) {
    watches.add(watch.apply(changed::release));
    return this;
  }

  /**
   * Returns once something watched changed since the last call (at once when it already did),
   * or after the look interval, or at the deadline: true to look again, false (at once) when
   * the wait's time was up before it began.
   */
  boolean awaitChange() throws InterruptedIOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      return false;
    }
    try {
      changed.tryAcquire(Math.min(left, lookEveryNanos), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted waiting for the coordinator");
    }
    changed.drainPermits(); // the caller reads the state anew: one look for any number
    return true;
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (Closeable watch : watches) {
      try {
        watch.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
