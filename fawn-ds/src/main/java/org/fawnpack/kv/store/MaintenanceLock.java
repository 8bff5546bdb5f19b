package org.fawnpack.kv.store;

import java.io.IOException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A datastore's maintenance lock: scans, snapshots, compactions, moves and close take it, so
 * that one at a time walks the log or swaps it for another.
 */
final class MaintenanceLock {

  /** What runs under the lock: a scan, a snapshot, a compaction. */
  @FunctionalInterface
  interface Work<T> {
    T run() throws IOException;
  }

  private final ReentrantLock lock = new ReentrantLock();

  /** The lock itself, for a pass that takes it with others (in {@link RangeMover}'s order). */
  ReentrantLock lock() {
    return lock;
  }

  <T> T run(Work<T> work) throws IOException {
    lock.lock();
    try {
      return work.run();
    } finally {
      lock.unlock();
    }
  }
}
