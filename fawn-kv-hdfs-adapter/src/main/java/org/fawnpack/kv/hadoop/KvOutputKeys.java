package org.fawnpack.kv.hadoop;

import java.util.List;
import org.fawnpack.conf.ConfigKey;

/** The keys of {@link FawnKvOutputFormat} and {@link FawnKvPutOutputFormat} ({@code fawn.kv.output.*}). */
public final class KvOutputKeys {
  public static final ConfigKey<Integer> BATCH_RECORDS = ConfigKey.intKey(
      "fawn.kv.output.batch-records", 500, 1, 100_000,
      "Puts sent at once (pipelined on one connection per front-end), then waited for: by each"
          + " task with batched puts, by each committer thread of a bulk load");
  public static final ConfigKey<String> STAGING_DIR = ConfigKey.stringKey(
      "fawn.kv.output.staging-dir", null, "a directory on the job's file system",
      v -> !v.isBlank(),
      "Where a bulk load's tasks stage their output until job commit (a directory per job,"
          + " deleted after commit or abort); unset: .fawn-kv-staging in the user's home"
          + " directory of the default file system");
  public static final ConfigKey<Integer> COMMIT_THREADS = ConfigKey.intKey(
      "fawn.kv.output.commit-threads", 4, 1, 64,
      "Staged files a bulk load's job commit puts into the cluster at once");

  public static final ConfigKey<Long> ATTACH_TIMEOUT_MS = ConfigKey.longKey(
      "fawn.kv.output.attach-timeout-ms", 600_000L, 1_000L, 86_400_000L,
      "A bulk load by attached files (kvload --attach): how long its job commit keeps trying"
          + " to stage, gate and apply (a chain being repaired, a node restarting) before it"
          + " fails; after its commit point the load is finished by ./fawn kv bulk-finish");

  public static final List<ConfigKey<?>> KEYS = List.of(BATCH_RECORDS, STAGING_DIR,
      COMMIT_THREADS, ATTACH_TIMEOUT_MS);

  private KvOutputKeys() {}
}
