package org.fawnpack.kv.store;

import java.io.IOException;

/**
 * Confirms a fragment match by reading the full key from the log. One instance per datastore
 * is reused by whoever holds its writer lock, instead of a capturing lambda per put (an
 * allocation the JIT did not remove on the put path). Not thread-safe.
 */
final class LogKeyCheck implements HashIndex.KeyCheck {

  private DataLog log;
  private byte[] key;
  private int from;
  private int length;

  /** Points the check at {@code key} in {@code log}; returns this. */
  LogKeyCheck of(DataLog log, byte[] key) {
    return of(log, key, 0, key.length);
  }

  /** Same, for a key held in {@code bytes[from, from+length)} (a scanner's buffer, say). */
  LogKeyCheck of(DataLog log, byte[] bytes, int from, int length) {
    this.log = log;
    this.key = bytes;
    this.from = from;
    this.length = length;
    return this;
  }

  @Override
  public boolean matches(long offset) throws IOException {
    return RecordReader.keyAt(log, offset, key, from, length);
  }
}
