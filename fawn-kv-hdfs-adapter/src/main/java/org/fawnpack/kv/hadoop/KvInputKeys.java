package org.fawnpack.kv.hadoop;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.kv.scan.ScanRequest;

/**
 * The keys of {@link FawnKvInputFormat} ({@code fawn.kv.input.*}); the cluster is found by the
 * store's own keys ({@code fawn.kv.zookeeper.quorum}, {@code fawn.kv.cluster},
 * {@code fawn.kv.secret-file}: see {@code org.fawnpack.kv.config.KvKeys}).
 */
public final class KvInputKeys {
  public static final ConfigKey<Long> SPLIT_BYTES = ConfigKey.bytesKey(
      "fawn.kv.input.split-bytes", 64L << 20, 1L << 20, 1L << 40,
      "Live bytes a map reads: arcs larger than this are cut into equal parts of the ring,"
          + " smaller arcs with the same tail host merged up to it");
  public static final ConfigKey<Integer> MAX_SPLITS = ConfigKey.intKey(
      "fawn.kv.input.max-splits", 4096, 1, 1_000_000,
      "Most splits (maps) a job gets; the split size doubles until the splits fit");
  public static final ConfigKey<String> KEY_PREFIX = ConfigKey.stringKey(
      "fawn.kv.input.key-prefix", null, "any text (UTF-8)", v -> true,
      "Only keys that start with this (filtered at the back-ends); unset: every key");
  public static final ConfigKey<Long> PAGE_BYTES = ConfigKey.bytesKey(
      "fawn.kv.input.page-bytes", 1L << 20, 4096, ScanRequest.MAX_PAGE_BYTES,
      "Keys and values per page a back-end sends a map (one larger entry comes alone)");
  public static final ConfigKey<Integer> PAGE_TIMEOUT_SECONDS = ConfigKey.intKey(
      "fawn.kv.input.page-timeout-seconds", 30, 1, 3600,
      "How long a map waits for one page before it asks again");
  public static final ConfigKey<Integer> FAILOVER_SECONDS = ConfigKey.intKey(
      "fawn.kv.input.failover-seconds", 60, 1, 86_400,
      "How long a map goes on asking for a page no tail serves (a failed tail's arc waits for"
          + " the coordinator's next epoch) before the task fails");

  public static final ConfigKey<Boolean> CONSISTENT = ConfigKey.booleanKey(
      "fawn.kv.input.consistent", false, "Read every arc as of its tail's last write when the"
          + " job was submitted: writes during the job are not seen, half or whole, and any"
          + " member of a chain may serve a map (those on its host first). A join that splits"
          + " an arc during the job fails the maps reading it. false: each arc as its tail has"
          + " it when a map first reads it");

  public static final ConfigKey<String> SNAPSHOT_DIR = ConfigKey.stringKey(
      "fawn.kv.input.snapshot-dir", null, "a directory holding a snapshot's MANIFEST",
      v -> !v.isBlank(), "FawnKvSnapshotInputFormat: the offline snapshot a job reads (fawn kv"
          + " snapshot --to DIR made it); no FAWN-KV node is needed");
  public static final ConfigKey<Integer> SNAPSHOT_PARALLEL_ARCS = ConfigKey.intKey(
      "fawn.kv.snapshot.parallel-arcs", 4, 1, 256,
      "Arcs fawn kv snapshot copies at once (each from its tail, a few 1 MiB pieces in flight)");

  public static final List<ConfigKey<?>> KEYS = List.of(SPLIT_BYTES, MAX_SPLITS, KEY_PREFIX,
      PAGE_BYTES, PAGE_TIMEOUT_SECONDS, FAILOVER_SECONDS, CONSISTENT, SNAPSHOT_DIR,
      SNAPSHOT_PARALLEL_ARCS);

  private KvInputKeys() {}

  /** The key's value in {@code conf}, its default when unset or blank. */
  static <T> T read(ConfigKey<T> key, Configuration conf) {
    String raw = conf.getTrimmed(key.name());
    return raw == null || raw.isEmpty() ? key.defaultValue() : key.parse(raw);
  }
}
