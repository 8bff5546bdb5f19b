package org.fawnpack.kv.hadoop;

import java.util.List;
import org.fawnpack.conf.ConfigKey;

/** The keys of {@link FawnKvPutOutputFormat} ({@code fawn.kv.output.*}). */
public final class KvOutputKeys {
  public static final ConfigKey<Integer> BATCH_RECORDS = ConfigKey.intKey(
      "fawn.kv.output.batch-records", 500, 1, 100_000,
      "Puts a task sends at once (pipelined on one connection per front-end), then waits for");

  public static final List<ConfigKey<?>> KEYS = List.of(BATCH_RECORDS);

  private KvOutputKeys() {}
}
