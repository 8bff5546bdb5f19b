package org.fawnpack.kv.store;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.ConfigReference;
import org.fawnpack.conf.InvalidConfigValueException;

/**
 * The settings of a datastore, each validated when set against its {@link ConfigKey}. Built in
 * code ({@code DatastoreConfig.builder().sync(SyncPolicy.EVERY_WRITE).build()}) or from
 * {@code fawn.kv.*} key/value pairs ({@link #fromMap}), which reject unknown {@code fawn.kv.}
 * keys so a misspelt key cannot pass silently.
 */
public final class DatastoreConfig {

  private static final long MAX_WRITEBACK_BYTES = 1L << 40;

  public static final ConfigKey<SyncPolicy> SYNC = ConfigKey.choiceKey("fawn.kv.sync",
      SyncPolicy.INTERVAL, SyncPolicy::key, "When appends are forced to the device: `none` "
          + "(only at sync/compact/split/merge/close, and by the writeback below), `interval` "
          + "(a background thread every interval), `every-write` (before each put/delete "
          + "returns).");
  public static final ConfigKey<Long> SYNC_INTERVAL_MS = ConfigKey.longKey(
      "fawn.kv.sync.interval-ms", 100, 1, 60_000,
      "Period of the `interval` policy, 1..60000 ms.");
  public static final ConfigKey<Long> WRITEBACK_BYTES = ConfigKey.longKeyOrOff(
      "fawn.kv.sync.writeback-bytes", 8L << 20, 1 << 20, MAX_WRITEBACK_BYTES, "Under every "
          + "policy, a background thread forces the log to the device each time this many more "
          + "bytes have reached the file, so dirty pages never pile up and a sync (or close, "
          + "split, merge) waits only for the last few MB; adds durability, never removes any. "
          + "0 = off; else 1048576.." + MAX_WRITEBACK_BYTES + ".");
  public static final ConfigKey<Double> LOAD_FACTOR = ConfigKey.doubleKey(
      "fawn.kv.index.load-factor", 0.9, 0.1, 0.95, "Share of index buckets (valid + deleted) "
          + "above which the index doubles, rebuilt by one pass over the log; 0.1..0.95.");
  public static final ConfigKey<Long> EXPECTED_KEYS = ConfigKey.longKey(
      "fawn.kv.index.expected-keys", 65_536, 1, 1L << HashIndex.MAX_CAPACITY_BITS,
      "Keys a new datastore's index is sized for (2^i buckets at the load factor); avoids "
          + "growth passes.");
  public static final ConfigKey<Boolean> JOURNAL = ConfigKey.booleanKey(
      "fawn.kv.sync.journal", true, "A FAWN-KV back-end's datastores share one journal in "
          + "`<data dir>/journal`: a write is durable once the journal is forced (one force for "
          + "every arc's writes since the last), each arc's file is forced by writeback, when the "
          + "journal seals a segment, by moves and at close (not by the `interval` policy), and a "
          + "restart first replays what a crash took from the files. `false`: each file is forced "
          + "for its own writes. A datastore opened on its own ignores it.");
  public static final ConfigKey<Boolean> CHECKPOINT = ConfigKey.booleanKey(
      "fawn.kv.index.checkpoint", true, "Write the index to `<file>.idx` at clean close and "
          + "after compaction, so that an open replays only the log after it.");
  public static final ConfigKey<Integer> WRITE_BUFFER_BYTES = ConfigKey.intKey(
      "fawn.kv.write-buffer-bytes", 1 << 20, 4096, 256 << 20, "Append buffer; records reach "
          + "the file in writes of this size, made by a background thread while appends go on "
          + "in a second buffer of the same size; 4096..268435456.");

  /** Every {@code fawn.kv.*} key, in the order of the reference table. */
  public static final List<ConfigKey<?>> KEYS = List.of(SYNC, SYNC_INTERVAL_MS, WRITEBACK_BYTES,
      JOURNAL, LOAD_FACTOR, EXPECTED_KEYS, CHECKPOINT, WRITE_BUFFER_BYTES);

  private final SyncPolicy sync;
  private final long syncIntervalMs;
  private final double loadFactor;
  private final long expectedKeys;
  private final boolean checkpoint;
  private final int writeBufferBytes;
  private final long writebackBytes;
  private final boolean journaled;
  private final Journal journal;

  private DatastoreConfig(Builder b) {
    this.sync = b.sync;
    this.syncIntervalMs = b.syncIntervalMs;
    this.loadFactor = b.loadFactor;
    this.expectedKeys = b.expectedKeys;
    this.checkpoint = b.checkpoint;
    this.writeBufferBytes = b.writeBufferBytes;
    this.writebackBytes = b.writebackBytes;
    this.journaled = b.journaled;
    this.journal = b.journal;
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
    b.journaled = journaled;
    b.journal = journal;
    return b;
  }

  /** Reads the {@code fawn.kv.*} entries of {@code settings}; other keys are ignored. */
  public static DatastoreConfig fromMap(Map<String, String> settings) {
    for (String key : settings.keySet()) {
      if (key.startsWith("fawn.kv.") && KEYS.stream().noneMatch(k -> k.name().equals(key))) {
        throw new InvalidConfigValueException(key, settings.get(key), "a known key ("
            + KEYS.stream().map(ConfigKey::name).collect(Collectors.joining(", ")) + ")");
      }
    }
    return builder().sync(SYNC.read(settings::get))
        .syncInterval(Duration.ofMillis(SYNC_INTERVAL_MS.read(settings::get)))
        .writebackBytes(WRITEBACK_BYTES.read(settings::get))
        .journaled(JOURNAL.read(settings::get))
        .loadFactor(LOAD_FACTOR.read(settings::get))
        .expectedKeys(EXPECTED_KEYS.read(settings::get))
        .checkpoint(CHECKPOINT.read(settings::get))
        .writeBufferBytes(WRITE_BUFFER_BYTES.read(settings::get)).build();
  }

  /** The keys, defaults and meanings as a markdown table (docs/configuration.md holds a copy). */
  public static String referenceTable() {
    return ConfigReference.table(KEYS);
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

  /**
   * Whether a node that opens many datastores ({@code fawn.kv.sync.journal}; a FAWN-KV back-end)
   * should give them one shared {@link #journal()}; a datastore opened on its own ignores it.
   */
  public boolean journaled() {
    return journaled;
  }

  /** The shared journal that makes writes durable, or null: each file forces itself. */
  public Journal journal() {
    return journal;
  }

  @Override
  public String toString() {
    return SYNC.name() + "=" + sync.key() + ", " + SYNC_INTERVAL_MS.name() + "=" + syncIntervalMs
        + ", " + LOAD_FACTOR.name() + "=" + loadFactor + ", " + EXPECTED_KEYS.name() + "="
        + expectedKeys + ", " + CHECKPOINT.name() + "=" + checkpoint + ", "
        + WRITE_BUFFER_BYTES.name() + "=" + writeBufferBytes + ", " + WRITEBACK_BYTES.name()
        + "=" + writebackBytes + ", " + JOURNAL.name() + "=" + journaled + (journal == null ? "" : ", journal=" + journal.directory());
  }

  /** Validates each setting as it is set. */
  public static final class Builder {
    private SyncPolicy sync = SYNC.defaultValue();
    private long syncIntervalMs = SYNC_INTERVAL_MS.defaultValue();
    private double loadFactor = LOAD_FACTOR.defaultValue();
    private long expectedKeys = EXPECTED_KEYS.defaultValue();
    private boolean checkpoint = CHECKPOINT.defaultValue();
    private int writeBufferBytes = WRITE_BUFFER_BYTES.defaultValue();
    private long writebackBytes = WRITEBACK_BYTES.defaultValue();
    private boolean journaled = JOURNAL.defaultValue();
    private Journal journal;

    private Builder() {}

    public Builder sync(SyncPolicy policy) {
      this.sync = SYNC.check(policy);
      return this;
    }

    public Builder syncInterval(Duration interval) {
      this.syncIntervalMs = SYNC_INTERVAL_MS.check(interval.toMillis());
      return this;
    }

    public Builder loadFactor(double factor) {
      this.loadFactor = LOAD_FACTOR.check(factor);
      return this;
    }

    public Builder expectedKeys(long keys) {
      this.expectedKeys = EXPECTED_KEYS.check(keys);
      return this;
    }

    public Builder checkpoint(boolean enabled) {
      this.checkpoint = enabled;
      return this;
    }

    public Builder writeBufferBytes(int bytes) {
      this.writeBufferBytes = WRITE_BUFFER_BYTES.check(bytes);
      return this;
    }

    /** Bytes between background forces of the log; 0 turns them off. */
    public Builder writebackBytes(long bytes) {
      this.writebackBytes = WRITEBACK_BYTES.check(bytes);
      return this;
    }

    /** See {@link DatastoreConfig#journaled()}. */
    public Builder journaled(boolean shared) {
      this.journaled = shared;
      return this;
    }

    /**
     * Writes are made durable by {@code shared} (one force for every datastore writing to it)
     * instead of each file's own force; null (the default) for none. Open the journal first:
     * {@link Journal#open} replays what a crash left before the files are opened.
     */
    public Builder journal(Journal shared) {
      this.journal = shared;
      return this;
    }

    public DatastoreConfig build() {
      return new DatastoreConfig(this);
    }
  }
}
