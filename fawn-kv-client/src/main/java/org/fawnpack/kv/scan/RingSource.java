package org.fawnpack.kv.scan;

import java.io.Closeable;
import java.io.IOException;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.zookeeper.RingStore;

/** Where a reader finds the current ring: a ZooKeeper watch in a cluster, a field in a test. */
@FunctionalInterface
public interface RingSource {
  /** The newest ring known here, or null before there is one. */
  Ring current();

  /**
   * Whether {@link #current()} is known to be the newest ring: false while the source's
   * ZooKeeper connection is down, when a newer epoch may have been published unseen. A reader
   * that must not act on an old ring without a back-end's check (a get sent straight to a tail)
   * asks this first. A plain source is always up to date.
   */
  default boolean upToDate() {
    return true;
  }

  /**
   * Waits up to {@code millis} for a ring newer than epoch {@code seen} (-1: any ring); a
   * reader's backoff between tries. This plain source has no news to wait on, so it waits the
   * whole time; a {@link Watched} one returns as soon as its watch delivers a newer epoch.
   */
  default void awaitNewer(long seen, long millis) throws InterruptedException {
    java.util.concurrent.TimeUnit.MILLISECONDS.sleep(millis);
  }

  /** Follows the ring stored in ZooKeeper; close the result to stop watching. */
  static Watched watching(RingStore store) throws IOException {
    return new Watched(store);
  }

  /** A {@link RingSource} fed by a watch of {@link RingStore}, epochs only going up. */
  final class Watched implements RingSource, Closeable {
    private static final org.slf4j.Logger LOG =
        org.slf4j.LoggerFactory.getLogger(Watched.class);
    private volatile Ring ring;
    private final Closeable watch;
    private final Closeable connection;
    /** False from a lost or suspended connection until the ring was read again after it. */
    private volatile boolean upToDate;

    private Watched(RingStore store) throws IOException {
      org.fawnpack.kv.ring.RingHash hash = store.ringHash();
      this.watch = store.watch(hash, this::offer);
      this.connection = store.followConnection(connected -> {
        if (!connected) {
          upToDate = false;
          return;
        }
        try { // the watch may have missed epochs while the connection was down
          store.read(hash).ifPresent(stored -> offer(stored.ring()));
          upToDate = true;
        } catch (IOException e) {
          LOG.warn("ring not read again after ZooKeeper reconnected: {}", e.getMessage());
        }
      });
      // The watch delivers on its own thread; read the ring now so a scan starts with it.
      store.read(hash).ifPresent(stored -> offer(stored.ring()));
      upToDate = store.connected();
    }

    @Override
    public boolean upToDate() {
      return upToDate;
    }

    private synchronized void offer(Ring next) {
      if (ring == null || next.epoch() > ring.epoch()) {
        ring = next;
        notifyAll(); // readers backing off for a new tail go on at once
      }
    }

    @Override
    public synchronized void awaitNewer(long seen, long millis) throws InterruptedException {
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS
          .toNanos(millis);
      for (long left = millis; left > 0 && (ring == null || ring.epoch() <= seen);
          left = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(deadline
              - System.nanoTime())) {
        wait(left);
      }
    }

    @Override
    public Ring current() {
      return ring;
    }

    @Override
    public void close() throws IOException {
      connection.close();
      watch.close();
    }
  }
}
