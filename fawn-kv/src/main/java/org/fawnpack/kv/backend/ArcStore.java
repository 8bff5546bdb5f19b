package org.fawnpack.kv.backend;

import java.io.IOException;
import java.nio.file.Path;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;

/**
 * One arc a back-end stores: its chain and its FAWN-DS file, named by the arc's end position.
 * Writers synchronise on it from the append until the write is handed to the successor's
 * connection, so records leave in the order of their sequence numbers.
 */
final class ArcStore implements AutoCloseable {
  private final Chain chain;
  private final Datastore store;

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

  Datastore store() {
    return store;
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
