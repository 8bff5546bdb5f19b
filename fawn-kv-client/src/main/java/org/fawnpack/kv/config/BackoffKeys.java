package org.fawnpack.kv.config;

import java.util.List;
import java.util.function.UnaryOperator;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.time.Backoffs;

/**
 * The pauses of FAWN-KV's retry loops, one pair of keys per kind of wait ({@link Backoffs}):
 * {@code fawn.kv.backoff.<kind>.first-pause-ms} and {@code .max-pause-ms}. A pause doubles
 * after each try, from the first up to the largest; equal values make a fixed pause.
 */
public final class BackoffKeys {
  private static final long MAX_MS = 3_600_000;

  /** One kind of wait: its two keys. */
  public record Pair(ConfigKey<Long> first, ConfigKey<Long> max) {
    /** The backoff the two keys give, or an error naming the largest when below the first. */
    Backoff read(UnaryOperator<String> settings) {
      long firstMs = first.read(settings);
      long maxMs = max.read(settings);
      if (maxMs < firstMs) {
        throw new InvalidConfigValueException(max.name(), maxMs, "at least " + first.name()
            + " (" + firstMs + ")");
      }
      return new Backoff(firstMs, maxMs);
    }
  }

  public static final Pair REQUEST = pair("request", Backoffs.DEFAULTS.request(),
      "a client's request between its tries (a broken link, ERROR, a refusal such as a chain"
      + " short while a member copies); the tries end at the request's deadline or the sixth");
  public static final Pair CLUSTER = pair("cluster", Backoffs.DEFAULTS.cluster(),
      "a node or driver waiting for the cluster to move on: a range scan's page failing over"
      + " to another member, a front-end fencing the back-ends at its new slice epoch (and, at"
      + " its first pause each time, a chain member whose successor is on another ring"
      + " epoch)");
  public static final Pair BULK = pair("bulk", Backoffs.DEFAULTS.bulk(),
      "a bulk load's driver waiting for a chain to be whole or a gate to open");
  public static final Pair COPY = pair("copy", Backoffs.DEFAULTS.copy(),
      "a back-end's copy of an arc that failed (its source splitting, busy or gone), before it"
      + " asks again, from whichever member is tail then");
  public static final Pair CHAIN_RESEND = pair("chain-resend", Backoffs.DEFAULTS.chainResend(),
      "a chain member's resend of the writes its successor may have missed (a failed send,"
      + " a refusal) when no new write carries them");

  public static final Pair ZOOKEEPER = pair("zookeeper", Backoffs.DEFAULTS.zookeeper(),
      "a node retrying a step in ZooKeeper that failed or found nothing yet: a coordinator's"
      + " check of the ring or slice map, a back-end's reading of its slice fence (and its wait"
      + " for its own registration first), a front-end's acknowledgement of a slice epoch");

  public static final List<ConfigKey<?>> KEYS = List.of(REQUEST.first(), REQUEST.max(),
      CLUSTER.first(), CLUSTER.max(), BULK.first(), BULK.max(), COPY.first(), COPY.max(),
      CHAIN_RESEND.first(), CHAIN_RESEND.max(), ZOOKEEPER.first(), ZOOKEEPER.max());

  private BackoffKeys() {}

  /** Every kind's pauses as {@code settings} set them (the defaults where unset). */
  public static Backoffs read(UnaryOperator<String> settings) {
    return new Backoffs(REQUEST.read(settings), CLUSTER.read(settings), BULK.read(settings),
        COPY.read(settings), CHAIN_RESEND.read(settings), ZOOKEEPER.read(settings));
  }

  private static Pair pair(String kind, Backoff defaults, String what) {
    String prefix = "fawn.kv.backoff." + kind + ".";
    return new Pair(
        ConfigKey.longKey(prefix + "first-pause-ms", defaults.firstPauseMs(), 1, MAX_MS,
            "First pause, in ms, of " + what + "; doubled after each further try."),
        ConfigKey.longKey(prefix + "max-pause-ms", defaults.maxPauseMs(), 1, MAX_MS,
            "Largest pause, in ms, of " + what + "; at least its first pause."));
  }
}
