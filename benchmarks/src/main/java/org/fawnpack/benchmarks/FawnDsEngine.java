package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.DatastoreStats;
import org.fawnpack.kv.store.SyncPolicy;

/** FAWN-DS with no sync per write, its index sized for the load (fawn.kv.index.expected-keys). */
final class FawnDsEngine implements KvEngine {

  static final String NAME = "fawn-ds";
  private final Datastore store;

  FawnDsEngine(Path dir, long entries) throws IOException {
    java.nio.file.Files.createDirectories(dir);
    store = Datastore.open(dir.resolve("bench.fds"), DatastoreConfig.builder()
        .sync(SyncPolicy.NONE).expectedKeys(entries).build());
  }

  Datastore store() {
    return store;
  }

  DatastoreStats stats() {
    return store.stats();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void put(byte[] key, byte[] value) throws IOException {
    store.put(key, value);
  }

  @Override
  public byte[] get(byte[] key) throws IOException {
    return store.get(key);
  }

  @Override
  public void finishLoad() throws IOException {
    store.sync();
  }

  @Override
  public void close() throws IOException {
    store.close();
  }
}
