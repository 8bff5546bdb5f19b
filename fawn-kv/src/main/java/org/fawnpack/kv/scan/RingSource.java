package org.fawnpack.kv.scan;

import java.io.Closeable;
import java.io.IOException;
import org.fawnpack.kv.coord.RingStore;
import org.fawnpack.kv.ring.Ring;

/** Where a reader finds the current ring: a ZooKeeper watch in a cluster, a field in a test. */
@FunctionalInterface
public interface RingSource {
  /** The newest ring known here, or null before there is one. */
  Ring current();

  /** Follows the ring stored in ZooKeeper; close the result to stop watching. */
  static Watched watching(RingStore store) throws IOException {
    return new Watched(store);
  }

  /** A {@link RingSource} fed by a watch of {@link RingStore}, epochs only going up. */
  final class Watched implements RingSource, Closeable {
    private volatile Ring ring;
    private final Closeable watch;

    private Watched(RingStore store) throws IOException {
      org.fawnpack.kv.ring.RingHash hash = store.ringHash();
      this.watch = store.watch(hash, this::offer);
      // The watch delivers on its own thread; read the ring now so a scan starts with it.
      store.read(hash).ifPresent(stored -> offer(stored.ring()));
    }

    private synchronized void offer(Ring next) {
      if (ring == null || next.epoch() > ring.epoch()) {
        ring = next;
      }
    }

    @Override
    public Ring current() {
      return ring;
    }

    @Override
    public void close() throws IOException {
      watch.close();
    }
  }
}
