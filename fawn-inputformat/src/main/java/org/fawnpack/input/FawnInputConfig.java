package org.fawnpack.input;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.InvalidConfigValueException;

/**
 * Every configuration key of the combined-split input formats, with its default and meaning.
 *
 * <p>Values are read and validated here, once, so that a bad value fails the job at submission
 * with an {@link InvalidConfigValueException} that names the key, the value and what is allowed.
 */
public final class FawnInputConfig {

  public static final ConfigKey<CombineSplitPolicy> POLICY = ConfigKey.choiceKey(
      "fawn.input.combine.policy", CombineSplitPolicy.ONE_PER_VCORE,
      CombineSplitPolicy::configName, "How the max split size is chosen. `one-per-vcore`:"
      + " ceil(total input bytes / vcores), kept within the min and max below, so each vcore"
      + " gets one map container. `fixed`: exactly `fawn.input.combine.max-split-bytes`.");

  public static final ConfigKey<Integer> VCORES = ConfigKey.optionalIntKey(
      "fawn.input.combine.vcores", 1, Integer.MAX_VALUE, "Vcores to size for. When set it wins."
      + " When unset: the sum of the vcores of the RUNNING NodeManagers, asked from the"
      + " ResourceManager at submission (YARN jobs; nodes with a node label are left out unless"
      + " `mapreduce.map.node-label-expression` names that label; the ApplicationMaster's"
      + " `yarn.app.mapreduce.am.resource.cpu-vcores` are taken off when it runs on the same"
      + " nodes, i.e. when `mapreduce.job.am.node-label-expression` equals the map label), or"
      + " this machine's processor count (local job runner).");

  public static final ConfigKey<Long> MAX_SPLIT_BYTES = ConfigKey.bytesKey(
      "fawn.input.combine.max-split-bytes", 256L << 20, 1, 1L << 50, "Cap of a combined split;"
      + " the split size of the `fixed` policy. Accepts `k`, `m`, `g`, `t` suffixes.");

  /**
   * A map container costs a JVM start (seconds on a wimpy node), so tiny inputs are not spread
   * over every vcore.
   */
  public static final ConfigKey<Long> MIN_SPLIT_BYTES = ConfigKey.bytesKey(
      "fawn.input.combine.min-split-bytes", 4L << 20, 1, 1L << 50, "Floor of a combined split"
      + " under `one-per-vcore`: a tiny input is not spread over every vcore, since each map"
      + " container costs a JVM start. When unset and the max is lower, the max. When set, must"
      + " not exceed the max.");

  public static final ConfigKey<Boolean> SKIP_CORRUPT = ConfigKey.booleanKey(
      "fawn.input.skip-corrupt", false, "A compressed file that cannot be decoded fails the task"
      + " with `CorruptInputException` naming the file. With `true` the rest of that file is"
      + " skipped, logged at WARN with its path, and counted in `CORRUPT_FILES_SKIPPED`.");

  /** The keys above, in the order of the configuration reference. */
  public static final List<ConfigKey<?>> KEYS =
      List.of(POLICY, VCORES, MAX_SPLIT_BYTES, MIN_SPLIT_BYTES, SKIP_CORRUPT);

  private FawnInputConfig() {}

  /**
   * Reads every key once, so a bad value fails the job before it is submitted.
   *
   * @throws InvalidConfigValueException naming the first bad key and its value
   */
  public static void validate(Configuration conf) {
    policy(conf);
    explicitVcores(conf);
    minSplitBytes(conf); // reads the max too
    skipCorrupt(conf);
  }

  public static CombineSplitPolicy policy(Configuration conf) {
    return read(POLICY, conf);
  }

  /** The configured vcores, or 0 when the key is unset. */
  public static int explicitVcores(Configuration conf) {
    Integer vcores = read(VCORES, conf);
    return vcores == null ? 0 : vcores;
  }

  public static long maxSplitBytes(Configuration conf) {
    return read(MAX_SPLIT_BYTES, conf);
  }

  /**
   * The floor; when it is not set and the max was lowered below the default floor, the max
   * itself, so lowering only the max never makes a conflict.
   */
  public static long minSplitBytes(Configuration conf) {
    long max = maxSplitBytes(conf);
    if (unset(conf, MIN_SPLIT_BYTES)) {
      return Math.min(MIN_SPLIT_BYTES.defaultValue(), max);
    }
    long min = read(MIN_SPLIT_BYTES, conf);
    if (min > max) {
      throw new InvalidConfigValueException(MIN_SPLIT_BYTES.name(), min,
          "at most " + MAX_SPLIT_BYTES.name() + " = " + max);
    }
    return min;
  }

  public static boolean skipCorrupt(Configuration conf) {
    return read(SKIP_CORRUPT, conf);
  }

  /** The key's value in {@code conf}; a blank value counts as unset, as it always has here. */
  private static <T> T read(ConfigKey<T> key, Configuration conf) {
    return unset(conf, key) ? key.defaultValue() : key.parse(conf.get(key.name()));
  }

  private static boolean unset(Configuration conf, ConfigKey<?> key) {
    String raw = conf.getTrimmed(key.name());
    return raw == null || raw.isEmpty();
  }
}
