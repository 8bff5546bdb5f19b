package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.input.ClusterVcores;
import org.fawnpack.jobs.FrameworkTuning;

/**
 * terasort's settings: the keys, their defaults, and the job defaults it applies. As with
 * {@link FrameworkTuning}, a value the user set (site file or -D) always wins.
 */
public final class TeraSortConfig {
  public static final ConfigKey<Integer> SAMPLE_SIZE = ConfigKey.intKey(
      "fawn.jobs.terasort.sample.size", 100_000, 1, Integer.MAX_VALUE, "Keys terasort samples"
      + " from its input to choose the cut points between reducers (at least 1).");

  public static final ConfigKey<Integer> SAMPLE_SPLITS = ConfigKey.intKey(
      "fawn.jobs.terasort.sample.splits", 10, 1, Integer.MAX_VALUE, "Input splits the sample"
      + " is read from, spread evenly over the input (at least 1).");

  public static final ConfigKey<Boolean> SIZE_SORT_BUFFER = ConfigKey.booleanKey(
      "fawn.jobs.terasort.size-sort-buffer", true, "Raise `mapreduce.task.io.sort.mb` (never"
      + " lower it) so the largest map's output fits one spill, at most 60% of the map heap,"
      + " with `mapreduce.map.sort.spill.percent` 0.9 unless that is set. `false` keeps the"
      + " configured buffer.");

  public static final ConfigKey<Integer> OUTPUT_REPLICATION = ConfigKey.intKey(
      "fawn.jobs.terasort.output.replication", 1, 1, Short.MAX_VALUE, "Replicas of each"
      + " terasort output file (stock TeraSort's default is 1 too).");

  /** The keys above, in the order of the configuration reference. */
  public static final List<ConfigKey<?>> KEYS =
      List.of(SAMPLE_SIZE, SAMPLE_SPLITS, SIZE_SORT_BUFFER, OUTPUT_REPLICATION);

  static {
    // The keys were fawn.terasort.*; a site file or -D option with the old name still works,
    // with Hadoop's one-time deprecation warning naming the new one.
    Configuration.addDeprecations(KEYS.stream()
        .map(key -> new Configuration.DeprecationDelta(
            key.name().replace("fawn.jobs.terasort.", "fawn.terasort."), key.name()))
        .toArray(Configuration.DeprecationDelta[]::new));
  }

  /**
   * Map-output compression: snappy through snappy-java (bundled in Hadoop's client, no
   * libhadoop needed) compressed teragen data 2.4x at ~550 MB/s here, deflate (java.util.zip)
   * 3.6x at ~35 MB/s (too slow: a map would spend seconds compressing), and Lz4Codec is not
   * usable at all without lz4-java, which Hadoop's client does not ship.
   */
  static final String CODEC = SnappyCodec.class.getName();

  private TeraSortConfig() {}

  static int sampleSize(Configuration conf) {
    return SAMPLE_SIZE.read(conf::get);
  }

  static int sampleSplits(Configuration conf) {
    return SAMPLE_SPLITS.read(conf::get);
  }

  static int outputReplication(Configuration conf) {
    return OUTPUT_REPLICATION.read(conf::get);
  }

  static boolean sizeSortBuffer(Configuration conf) {
    return SIZE_SORT_BUFFER.read(conf::get);
  }

  /** -D mapreduce.job.reduces when given, else the vcores the cluster offers tasks. */
  static int reduces(Configuration conf) throws IOException {
    if (FrameworkTuning.isUserSet(conf, MRJobConfig.NUM_REDUCES)) {
      return atLeastOne(conf, MRJobConfig.NUM_REDUCES);
    }
    return ClusterVcores.forJob(conf);
  }

  /** -D mapreduce.job.maps when given, else one map per vcore the cluster offers tasks. */
  static int maps(Configuration conf) throws IOException {
    if (FrameworkTuning.isUserSet(conf, MRJobConfig.NUM_MAPS)) {
      return atLeastOne(conf, MRJobConfig.NUM_MAPS);
    }
    return ClusterVcores.forJob(conf);
  }

  /**
   * Share of the reducer's heap that may keep shuffled map outputs in memory while reducing.
   * Hadoop's default 0 writes every shuffled byte to disk and reads it back before the first
   * record is reduced; a terasort reducer's input is one even share of the data, which on a
   * cluster sized for the job fits the shuffle buffer.
   */
  static final String REDUCE_INPUT_BUFFER = "0.7";

  /**
   * Map-output compression on, with snappy, and the reducers' input kept in memory, unless the
   * user chose otherwise.
   */
  static void applyJobDefaults(Configuration conf) {
    FrameworkTuning.apply(conf);
    setUnlessUserSet(conf, MRJobConfig.MAP_OUTPUT_COMPRESS, "true");
    setUnlessUserSet(conf, MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC, CODEC);
    setUnlessUserSet(conf, MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, REDUCE_INPUT_BUFFER);
  }

  private static void setUnlessUserSet(Configuration conf, String key, String value) {
    if (!FrameworkTuning.isUserSet(conf, key)) {
      conf.set(key, value, "fawn terasort defaults");
    }
  }

  /** A Hadoop key the user set (mapreduce.job.maps or .reduces), held to 1 or more. */
  private static int atLeastOne(Configuration conf, String key) {
    String raw = conf.getTrimmed(key);
    try {
      int value = Integer.parseInt(raw);
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // refused below, naming the key
    }
    throw new InvalidConfigValueException(key, raw, "a whole number of at least 1");
  }
}
