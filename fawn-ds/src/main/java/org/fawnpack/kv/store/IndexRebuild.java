package org.fawnpack.kv.store;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A bigger index for a log, built by one pass over the log on a thread of its own, so that a
 * merge can copy the other datastore's records meanwhile. The pass covers the log as flushed
 * when it starts; records appended later are the caller's to insert. Waiting for it is
 * uninterruptible: returning early would let the caller close a log the pass still reads.
 */
final class IndexRebuild {

  private final FutureTask<HashIndex> task;

  private IndexRebuild(FutureTask<HashIndex> task) {
    this.task = task;
  }

  /** Starts building an index holding {@code index}'s keys with room for {@code more}. */
  static IndexRebuild start(HashIndex index, DataLog log, double loadFactor, long more)
      throws IOException {
    log.flush();
    long end = log.flushedBytes();
    int bits = IndexBuilder.bitsWithRoom(index, loadFactor, more);
    FutureTask<HashIndex> task = new FutureTask<>(() -> IndexBuilder.rehash(index, log, bits, end));
    Thread thread = new Thread(task, "fawn-ds-index-rebuild");
    thread.setDaemon(true);
    thread.start();
    return new IndexRebuild(task);
  }

  /** The rebuilt index; a failure of the pass is thrown here. */
  HashIndex await() throws IOException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof IOException io) {
            throw io;
          }
          if (cause instanceof RuntimeException re) {
            throw re;
          }
          throw new IllegalStateException("index rebuild failed", cause);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits for the pass after {@code primary} ended the caller's work; its failure is added. */
  void awaitAfter(Exception primary) {
    try {
      await();
    } catch (IOException | RuntimeException e) {
      primary.addSuppressed(e);
    }
  }
}
