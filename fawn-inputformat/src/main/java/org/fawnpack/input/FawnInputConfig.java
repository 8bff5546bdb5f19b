package org.fawnpack.input;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * Every configuration key of the combined-split input formats, with its default and meaning.
 *
 * <p>Values are read and validated here, once, so that a bad value fails the job at submission
 * with a message that names the key, the value and what is allowed.
 */
public final class FawnInputConfig {

  /** Split-sizing policy: {@code one-per-vcore} (default) or {@code fixed}. */
  public static final String POLICY = "fawn.input.combine.policy";
  public static final String DEFAULT_POLICY = "one-per-vcore";

  /**
   * Vcores to size for. When set it wins; when unset the ResourceManager is asked (YARN jobs) or
   * this machine's processor count is used (local jobs).
   */
  public static final String VCORES = "fawn.input.combine.vcores";

  /** Upper bound of a combined split, bytes; also the split size of the {@code fixed} policy. */
  public static final String MAX_SPLIT_BYTES = "fawn.input.combine.max-split-bytes";
  public static final long DEFAULT_MAX_SPLIT_BYTES = 256L * 1024 * 1024;

  /**
   * Lower bound of a combined split under {@code one-per-vcore}, bytes: a map container costs a
   * JVM start (seconds on a wimpy node), so tiny inputs are not spread over every vcore.
   */
  public static final String MIN_SPLIT_BYTES = "fawn.input.combine.min-split-bytes";
  public static final long DEFAULT_MIN_SPLIT_BYTES = 4L * 1024 * 1024;

  /** Skip (and count) a compressed file that cannot be decoded instead of failing the task. */
  public static final String SKIP_CORRUPT = "fawn.input.skip-corrupt";
  public static final boolean DEFAULT_SKIP_CORRUPT = false;

  private FawnInputConfig() {}

  /**
   * Reads every key once, so a bad value fails the job before it is submitted.
   *
   * @throws InvalidConfigException naming the first bad key and its value
   */
  public static void validate(Configuration conf) {
    policy(conf);
    explicitVcores(conf);
    minSplitBytes(conf); // reads the max too
    skipCorrupt(conf);
  }

  /** The configured policy; rejects unknown names. */
  public static CombineSplitPolicy policy(Configuration conf) {
    String value = conf.getTrimmed(POLICY, DEFAULT_POLICY);
    for (CombineSplitPolicy policy : CombineSplitPolicy.values()) {
      if (policy.configName().equals(value.toLowerCase(Locale.ROOT))) {
        return policy;
      }
    }
    throw new InvalidConfigException(POLICY, POLICY + " = '" + value
        + "' is not a policy; allowed: " + CombineSplitPolicy.allowedNames());
  }

  /** The configured vcores, or 0 when the key is unset. */
  public static int explicitVcores(Configuration conf) {
    String raw = conf.getTrimmed(VCORES);
    if (raw == null || raw.isEmpty()) {
      return 0;
    }
    int vcores = parseInt(VCORES, raw);
    if (vcores < 1) {
      throw new InvalidConfigException(VCORES, VCORES + " = " + raw + " must be at least 1");
    }
    return vcores;
  }

  public static long maxSplitBytes(Configuration conf) {
    return positiveBytes(conf, MAX_SPLIT_BYTES, DEFAULT_MAX_SPLIT_BYTES);
  }

  /**
   * The floor; when it is not set and the max was lowered below the default floor, the max
   * itself, so lowering only the max never makes a conflict.
   */
  public static long minSplitBytes(Configuration conf) {
    long max = maxSplitBytes(conf);
    String raw = conf.getTrimmed(MIN_SPLIT_BYTES);
    if (raw == null || raw.isEmpty()) {
      return Math.min(DEFAULT_MIN_SPLIT_BYTES, max);
    }
    long min = positiveBytes(conf, MIN_SPLIT_BYTES, DEFAULT_MIN_SPLIT_BYTES);
    if (min > max) {
      throw new InvalidConfigException(MIN_SPLIT_BYTES, MIN_SPLIT_BYTES + " = " + min
          + " exceeds " + MAX_SPLIT_BYTES + " = " + max);
    }
    return min;
  }

  public static boolean skipCorrupt(Configuration conf) {
    String raw = conf.getTrimmed(SKIP_CORRUPT, Boolean.toString(DEFAULT_SKIP_CORRUPT));
    if (!raw.equalsIgnoreCase("true") && !raw.equalsIgnoreCase("false")) {
      throw new InvalidConfigException(SKIP_CORRUPT,
          SKIP_CORRUPT + " = '" + raw + "' must be true or false");
    }
    return Boolean.parseBoolean(raw);
  }

  /**
   * A byte size of at least 1 (plain bytes or with k, m, g, t suffixes), the default when unset.
   *
   * @throws InvalidConfigException naming the key and the value
   */
  public static long positiveBytes(Configuration conf, String key, long defaultValue) {
    String raw = conf.getTrimmed(key);
    if (raw == null || raw.isEmpty()) {
      return defaultValue;
    }
    long value;
    try {
      // Accepts plain bytes or Hadoop's size suffixes (k, m, g, t, p, e).
      value = conf.getLongBytes(key, defaultValue);
    } catch (IllegalArgumentException e) {
      // NumberFormatException for "lots", but a plain IllegalArgumentException for an unknown
      // suffix ("64mb") or an overflow ("9e"): both must name the key.
      throw new InvalidConfigException(key, key + " = '" + raw
          + "' is not a byte size (use a number, optionally with k, m, g or t)", e);
    }
    if (value < 1) {
      throw new InvalidConfigException(key, key + " = " + raw + " must be at least 1 byte");
    }
    return value;
  }

  private static int parseInt(String key, String raw) {
    try {
      return Integer.parseInt(raw);
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, key + " = '" + raw + "' is not a whole number", e);
    }
  }
}
