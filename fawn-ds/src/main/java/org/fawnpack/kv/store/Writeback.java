package org.fawnpack.kv.store;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background side of one log's writes: after every {@code bytes} that reach the file, one
 * background force sends them on to the device (at most one in flight; RocksDB's
 * {@code bytes_per_sync} idea), so dirty pages never pile up and an explicit sync only waits for
 * the last few megabytes. Also keeps the first failure of a write or force, in the background
 * or in a flush: the log's end on disk is then unknown, and every later append, flush and sync must throw.
 */
final class Writeback {

  private static final Logger LOG = LoggerFactory.getLogger(Writeback.class);

  private final FileChannel channel;
  private final long bytes;
  private final Supplier<Path> path;
  /** File length at the last force request; only the (serial) writes touch it. */
  private volatile long requestedAt;
  private final AtomicBoolean running = new AtomicBoolean();
  private volatile Future<?> task;
  private volatile IOException failure;

  /** {@code bytes} 0 turns the forces off; {@code fileLength} is where the writes start. */
  Writeback(FileChannel channel, long bytes, long fileLength, Supplier<Path> path) {
    this.channel = channel;
    this.bytes = bytes;
    this.requestedAt = fileLength;
    this.path = path;
  }

  /** A background write made the file {@code end} long; forces when enough piled up. */
  void written(long end) {
    if (bytes > 0 && end - requestedAt >= bytes && running.compareAndSet(false, true)) {
      requestedAt = end;
      task = LogWriters.executor().submit(this::force);
    }
  }

  /** The file was cut to {@code length}. */
  void restartAt(long length) {
    requestedAt = length;
  }

  private void force() {
    try {
      channel.force(false);
    } catch (IOException e) {
      failed(e);
    } finally {
      running.set(false);
    }
  }

  /** Records the failure of a write or force (the first one; not after close). */
  void failed(IOException e) {
    if (channel.isOpen() && failure == null) {
      failure = e;
      LOG.error("{}: a write or force of the log failed; appends to it fail from now on",
          path.get(), e);
    }
  }

  void throwIfFailed() throws IOException {
    IOException f = failure;
    if (f != null) {
      throw new IOException(path.get() + ": an earlier write or force of this log failed, so its "
          + "end on disk is unknown", f);
    }
  }

  /** Waits for the force in flight, if any, before the file closes. */
  void awaitLastForce() throws InterruptedIOException {
    Future<?> force = task;
    if (force == null) {
      return;
    }
    try {
      force.get();
    } catch (ExecutionException e) {
      LOG.warn("{}: closing after a failed background force", path.get(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(path.get() + ": interrupted waiting for a log force");
    }
  }
}
