package org.fawnpack.kv.store;

import java.time.Duration;
import java.util.Map;

/**
 * The settings of a datastore, each validated when set. Built in code
 * ({@code DatastoreConfig.builder().sync(SyncPolicy.EVERY_WRITE).build()}) or from
 * {@code fawn.kv.*} key/value pairs ({@link #fromMap}), which reject unknown {@code fawn.kv.}
 * keys so a misspelt key cannot pass silently.
 */
public final class DatastoreConfig {

  public static final String SYNC = "fawn.kv.sync";
  public static final String SYNC_INTERVAL_MS = "fawn.kv.sync.interval-ms";
  public static final String LOAD_FACTOR = "fawn.kv.index.load-factor";
  public static final String EXPECTED_KEYS = "fawn.kv.index.expected-keys";
  public static final String CHECKPOINT = "fawn.kv.index.checkpoint";
  public static final String WRITE_BUFFER_BYTES = "fawn.kv.write-buffer-bytes";
  public static final String WRITEBACK_BYTES = "fawn.kv.sync.writeback-bytes";

  public static final SyncPolicy DEFAULT_SYNC = SyncPolicy.INTERVAL;
  public static final long DEFAULT_SYNC_INTERVAL_MS = 100;
  public static final double DEFAULT_LOAD_FACTOR = 0.9;
  public static final long DEFAULT_EXPECTED_KEYS = 65_536;
  public static final boolean DEFAULT_CHECKPOINT = true;
  public static final int DEFAULT_WRITE_BUFFER_BYTES = 1 << 20;
  public static final long DEFAULT_WRITEBACK_BYTES = 8L << 20;
  private static final long MAX_WRITEBACK_BYTES = 1L << 40;

  private static final double MIN_LOAD_FACTOR = 0.1;
  private static final double MAX_LOAD_FACTOR = 0.95;

  private final SyncPolicy sync;
  private final long syncIntervalMs;
  private final double loadFactor;
  private final long expectedKeys;
  private final boolean checkpoint;
  private final int writeBufferBytes;
  private final long writebackBytes;

  private DatastoreConfig(Builder b) {
    this.sync = b.sync;
    this.syncIntervalMs = b.syncIntervalMs;
    this.loadFactor = b.loadFactor;
    this.expectedKeys = b.expectedKeys;
    this.checkpoint = b.checkpoint;
    this.writeBufferBytes = b.writeBufferBytes;
    this.writebackBytes = b.writebackBytes;
  }

  public static DatastoreConfig defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these settings, to derive a variant: {@code c.toBuilder().sync(..)}. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.sync = sync;
    b.syncIntervalMs = syncIntervalMs;
    b.loadFactor = loadFactor;
    b.expectedKeys = expectedKeys;
    b.checkpoint = checkpoint;
    b.writeBufferBytes = writeBufferBytes;
    b.writebackBytes = writebackBytes;
    return b;
  }

  /** Reads the {@code fawn.kv.*} entries of {@code settings}; other keys are ignored. */
  public static DatastoreConfig fromMap(Map<String, String> settings) {
    Builder b = builder();
    for (Map.Entry<String, String> e : settings.entrySet()) {
      String key = e.getKey();
      String value = e.getValue();
      if (!key.startsWith("fawn.kv.")) {
        continue;
      }
      switch (key) {
        case SYNC -> b.sync(SyncPolicy.parse(value));
        case SYNC_INTERVAL_MS -> b.syncInterval(Duration.ofMillis(parseLong(key, value)));
        case LOAD_FACTOR -> b.loadFactor(parseDouble(key, value));
        case EXPECTED_KEYS -> b.expectedKeys(parseLong(key, value));
        case CHECKPOINT -> b.checkpoint(parseBoolean(key, value));
        case WRITE_BUFFER_BYTES -> b.writeBufferBytes(parseInt(key, value));
        case WRITEBACK_BYTES -> b.writebackBytes(parseLong(key, value));
        default -> throw new InvalidDatastoreConfigException(key, value,
            "a known key (" + String.join(", ", SYNC, SYNC_INTERVAL_MS, WRITEBACK_BYTES,
                LOAD_FACTOR, EXPECTED_KEYS, CHECKPOINT, WRITE_BUFFER_BYTES) + ")");
      }
    }
    return b.build();
  }

  /** The keys, defaults and meanings as a markdown table (docs/configuration.md holds a copy). */
  public static String referenceTable() {
    return "| key | default | meaning |\n|---|---|---|\n"
        + row(SYNC, DEFAULT_SYNC.key(), "When appends are forced to the device: `none` (only at "
            + "sync/compact/split/merge/close, and by the writeback below), `interval` (a background thread every interval), "
            + "`every-write` (before each put/delete returns).")
        + row(SYNC_INTERVAL_MS, String.valueOf(DEFAULT_SYNC_INTERVAL_MS),
            "Period of the `interval` policy, 1..60000 ms.")
        + row(WRITEBACK_BYTES, String.valueOf(DEFAULT_WRITEBACK_BYTES), "Under every policy, "
            + "a background thread forces the log to the device each time this many more bytes "
            + "have reached the file, so dirty pages never pile up and a sync (or close, split, "
            + "merge) waits only for the last few MB; adds durability, never removes any. "
            + "0 = off; else 1048576.." + MAX_WRITEBACK_BYTES + ".")
        + row(LOAD_FACTOR, String.valueOf(DEFAULT_LOAD_FACTOR), "Share of index buckets "
            + "(valid + deleted) above which the index doubles, rebuilt by one pass over the log; "
            + MIN_LOAD_FACTOR + ".." + MAX_LOAD_FACTOR + ".")
        + row(EXPECTED_KEYS, String.valueOf(DEFAULT_EXPECTED_KEYS), "Keys a new datastore's "
            + "index is sized for (2^i buckets at the load factor); avoids growth passes.")
        + row(CHECKPOINT, String.valueOf(DEFAULT_CHECKPOINT), "Write the index to "
            + "`<file>.idx` at clean close and after compaction, so that an open replays only "
            + "the log after it.")
        + row(WRITE_BUFFER_BYTES, String.valueOf(DEFAULT_WRITE_BUFFER_BYTES), "Append buffer; "
            + "records reach the file in writes of this size, made by a background thread while "
            + "appends go on in a second buffer of the same size; 4096..268435456.");
  }

  private static String row(String key, String def, String meaning) {
    return "| `" + key + "` | `" + def + "` | " + meaning + " |\n";
  }

  private static long parseLong(String key, String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidDatastoreConfigException(key, value, "an integer");
    }
  }

  private static int parseInt(String key, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidDatastoreConfigException(key, value, "an integer");
    }
  }

  private static double parseDouble(String key, String value) {
    try {
      return Double.parseDouble(value.trim());
    } catch (NumberFormatException e) {
      throw new InvalidDatastoreConfigException(key, value, "a number");
    }
  }

  private static boolean parseBoolean(String key, String value) {
    String v = value.trim();
    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(v);
    }
    throw new InvalidDatastoreConfigException(key, value, "true or false");
  }

  public SyncPolicy sync() {
    return sync;
  }

  public long syncIntervalMs() {
    return syncIntervalMs;
  }

  public double loadFactor() {
    return loadFactor;
  }

  public long expectedKeys() {
    return expectedKeys;
  }

  public boolean checkpoint() {
    return checkpoint;
  }

  public int writeBufferBytes() {
    return writeBufferBytes;
  }

  public long writebackBytes() {
    return writebackBytes;
  }

  @Override
  public String toString() {
    return SYNC + "=" + sync.key() + ", " + SYNC_INTERVAL_MS + "=" + syncIntervalMs + ", "
        + LOAD_FACTOR + "=" + loadFactor + ", " + EXPECTED_KEYS + "=" + expectedKeys + ", "
        + CHECKPOINT + "=" + checkpoint + ", " + WRITE_BUFFER_BYTES + "=" + writeBufferBytes
        + ", " + WRITEBACK_BYTES + "=" + writebackBytes;
  }

  /** Validates each setting as it is set. */
  public static final class Builder {
    private SyncPolicy sync = DEFAULT_SYNC;
    private long syncIntervalMs = DEFAULT_SYNC_INTERVAL_MS;
    private double loadFactor = DEFAULT_LOAD_FACTOR;
    private long expectedKeys = DEFAULT_EXPECTED_KEYS;
    private boolean checkpoint = DEFAULT_CHECKPOINT;
    private int writeBufferBytes = DEFAULT_WRITE_BUFFER_BYTES;
    private long writebackBytes = DEFAULT_WRITEBACK_BYTES;

    private Builder() {}

    public Builder sync(SyncPolicy policy) {
      if (policy == null) {
        throw new NullPointerException(SYNC);
      }
      this.sync = policy;
      return this;
    }

    public Builder syncInterval(Duration interval) {
      long ms = interval.toMillis();
      if (ms < 1 || ms > 60_000) {
        throw new InvalidDatastoreConfigException(SYNC_INTERVAL_MS, ms, "1..60000 ms");
      }
      this.syncIntervalMs = ms;
      return this;
    }

    public Builder loadFactor(double factor) {
      if (!(factor >= MIN_LOAD_FACTOR && factor <= MAX_LOAD_FACTOR)) {
        throw new InvalidDatastoreConfigException(LOAD_FACTOR, factor,
            MIN_LOAD_FACTOR + ".." + MAX_LOAD_FACTOR);
      }
      this.loadFactor = factor;
      return this;
    }

    public Builder expectedKeys(long keys) {
      if (keys < 1 || keys > (1L << HashIndex.MAX_CAPACITY_BITS)) {
        throw new InvalidDatastoreConfigException(EXPECTED_KEYS, keys,
            "1.." + (1L << HashIndex.MAX_CAPACITY_BITS));
      }
      this.expectedKeys = keys;
      return this;
    }

    public Builder checkpoint(boolean enabled) {
      this.checkpoint = enabled;
      return this;
    }

    public Builder writeBufferBytes(int bytes) {
      if (bytes < 4096 || bytes > (256 << 20)) {
        throw new InvalidDatastoreConfigException(WRITE_BUFFER_BYTES, bytes,
            "4096..268435456 bytes");
      }
      this.writeBufferBytes = bytes;
      return this;
    }

    /** Bytes between background forces of the log; 0 turns them off. */
    public Builder writebackBytes(long bytes) {
      if (bytes != 0 && (bytes < (1 << 20) || bytes > MAX_WRITEBACK_BYTES)) {
        throw new InvalidDatastoreConfigException(WRITEBACK_BYTES, bytes,
            "0 (off) or 1048576.." + MAX_WRITEBACK_BYTES + " bytes");
      }
      this.writebackBytes = bytes;
      return this;
    }

    public DatastoreConfig build() {
      return new DatastoreConfig(this);
    }
  }
}
