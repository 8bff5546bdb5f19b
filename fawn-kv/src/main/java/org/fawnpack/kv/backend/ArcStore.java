package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Path;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;

/**
 * One arc a back-end stores: its chain and its FAWN-DS file, named by the arc's end position.
 * Writers synchronise on it from the append until the write is handed to the successor's
 * connection, so records leave in the order of their sequence numbers; a chain change takes
 * the same lock, so a resend of the sent list never interleaves with a new forward.
 */
final class ArcStore implements AutoCloseable {
  private volatile Chain chain;
  private final Datastore store;
  private final SentList sent = new SentList();

  private ArcStore(Chain chain, Datastore store) {
    this.chain = chain;
    this.store = store;
  }

  static ArcStore open(Path dir, Chain chain, DatastoreConfig config) throws IOException {
    String name = "arc-" + String.format("%016x", chain.range().endInclusive()) + ".fds";
    return new ArcStore(chain, Datastore.open(dir.resolve(name), config));
  }

  Chain chain() {
    return chain;
  }

  /** The arc's chain in a newer epoch (the same range; members may have gone down). */
  void useChain(Chain next) {
    if (!next.range().equals(chain.range())) {
      throw new IllegalArgumentException("arc " + chain.range() + " cannot take the chain of "
          + next.range());
    }
    chain = next;
  }

  SentList sent() {
    return sent;
  }

  Datastore store() {
    return store;
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
