package org.fawnpack.kv.wire;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in the order they were submitted, on threads of a shared pool:
 * the order a thread per connection kept, without a thread per connection. A task that blocks
 * holds up only the tasks behind it in this executor.
 */
final class SerialExecutor implements Executor {
  private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

  private final Executor pool;
  private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean running = new AtomicBoolean();

  SerialExecutor(Executor pool) {
    this.pool = pool;
  }

  @Override
  public void execute(Runnable task) {
    tasks.add(task);
    if (running.compareAndSet(false, true)) {
      pool.execute(this::runAll);
    }
  }

  /** True when every task submitted so far has run (only the submitting thread may rely on it). */
  boolean idle() {
    return !running.get() && tasks.isEmpty();
  }

  private void runAll() {
    do {
      Runnable task;
      while ((task = tasks.poll()) != null) {
        try {
          task.run();
        } catch (RuntimeException e) {
          LOG.error("a queued task failed", e); // its own handler logs and answers; a bug if here
        }
      }
      running.set(false);
      // A task added between the last poll and clearing the flag found it still set.
    } while (!tasks.isEmpty() && running.compareAndSet(false, true));
  }
}
