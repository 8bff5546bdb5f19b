package org.fawnpack.kv.store;

import java.io.IOException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The last step of a datastore's life: its log synced, the sync position advanced, the index
 * checkpoint written (when enabled, so the next open does not re-index) and the log closed.
 * Each step runs even when an earlier one failed; the first failure is thrown.
 */
final class FinalSync {
  private FinalSync() {}

  /**
   * Closes a datastore just marked closed: its interval syncs stop, a running maintenance pass
   * and write are waited for, then the log is synced, checkpointed and closed under both locks
   * (the log read after they are taken: a compaction may have swapped it meanwhile).
   */
  static void close(CurrentLog current, Writes writes, DatastoreConfig config,
      ReentrantLock maintenanceLock, ScheduledFuture<?> syncTask) throws IOException {
    if (syncTask != null) {
      syncTask.cancel(false);
    }
    maintenanceLock.lock();
    writes.lock().lock();
    try {
      syncCheckpointAndClose(current.get(), writes, config);
      writes.detachFromJournal(); // only once the file holds every write, forced
    } finally {
      writes.lock().unlock();
      maintenanceLock.unlock();
    }
  }

  /** The caller holds the maintenance and writer locks. */
  static void syncCheckpointAndClose(IndexedLog g, Writes writes, DatastoreConfig config)
      throws IOException {
    IOException failure = null;
    try {
      g.log().sync();
      long next = writes.nextSequence();
      writes.sync().advanceTo(next - 1);
      if (config.checkpoint()) {
        IndexCheckpoint.write(g.log().path(), g.log().logId(), g.log().flushedBytes(), next,
            g.index());
      }
    } catch (IOException e) {
      failure = e;
    }
    try {
      g.log().close();
    } catch (IOException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
