package org.fawnpack.kv.store;

/** When appended records are forced to the device ({@code fawn.kv.sync}). */
public enum SyncPolicy {
  /** Never by itself: at {@link Datastore#sync()}, compaction and close only. */
  NONE("none"),
  /** Every {@code fawn.kv.sync.interval-ms} by a background thread (the default). */
  INTERVAL("interval"),
  /** Before each put or delete returns. */
  EVERY_WRITE("every-write");

  private final String key;

  SyncPolicy(String key) {
    this.key = key;
  }

  /** The configuration spelling: none, interval, every-write. */
  public String key() {
    return key;
  }
}
