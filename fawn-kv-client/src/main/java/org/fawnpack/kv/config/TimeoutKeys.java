package org.fawnpack.kv.config;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.kv.wire.Timeouts;

/**
 * The waits for answers, one key per timeout class ({@link org.fawnpack.kv.wire.Verb.Wait}):
 * {@code fawn.kv.timeout.answer-ms} and {@code fawn.kv.timeout.transfer-ms}; a client's try is
 * {@link KvKeys#CLIENT_TRY_TIMEOUT_MS}, as before.
 */
public final class TimeoutKeys {
  private static final long MAX_MS = 3_600_000;

  public static final ConfigKey<Long> ANSWER_MS = ConfigKey.longKey("fawn.kv.timeout.answer-ms",
      Timeouts.DEFAULTS.answer().toMillis(), 1, MAX_MS,
      "How long a node or command waits, in ms, for an answer a peer gives from memory or once"
      + " the writes before it are committed: STATS, SLICES, ARC_RELEASE, BULK_GATE,"
      + " BULK_RELEASE; and, beyond the time the peer may hold it, a copier's ARC_LAST and a"
      + " front-end's FENCE. Past it the peer counts as not answering (tried again, or another"
      + " member).");
  public static final ConfigKey<Long> TRANSFER_MS = ConfigKey.longKey(
      "fawn.kv.timeout.transfer-ms", Timeouts.DEFAULTS.transfer().toMillis(), 1, MAX_MS,
      "How long a node or command waits, in ms, for an answer that costs a megabyte on the wire"
      + " or a pass over a file: a copy's ARC_SNAPSHOT and ARC_CHUNK, a range scan's page"
      + " (SCAN; the input format has its own, fawn.kv.input.page-timeout-seconds), a bulk"
      + " load's BULK_STAGE and BULK_APPLY (each at most the load's own deadline).");

  public static final List<ConfigKey<?>> KEYS = List.of(ANSWER_MS, TRANSFER_MS);

  private TimeoutKeys() {}

  /** The waits {@code settings} set (the defaults where unset). */
  public static Timeouts read(UnaryOperator<String> settings) {
    return new Timeouts(Duration.ofMillis(KvKeys.CLIENT_TRY_TIMEOUT_MS.read(settings)),
        Duration.ofMillis(ANSWER_MS.read(settings)), Duration.ofMillis(TRANSFER_MS.read(settings)));
  }
}
