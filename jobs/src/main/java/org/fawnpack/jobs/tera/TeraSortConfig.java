package org.fawnpack.jobs.tera;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.SnappyCodec;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.fawnpack.input.ClusterVcores;
import org.fawnpack.input.InvalidConfigException;
import org.fawnpack.jobs.FrameworkTuning;

/**
 * terasort's settings: the keys, their defaults, and the job defaults it applies. As with
 * {@link FrameworkTuning}, a value the user set (site file or -D) always wins.
 */
public final class TeraSortConfig {
  /** Keys sampled to choose the cut points between reducers. */
  public static final String SAMPLE_SIZE = "fawn.terasort.sample.size";
  public static final int DEFAULT_SAMPLE_SIZE = 100_000;
  /** Input splits the sample is read from, spread evenly over the input. */
  public static final String SAMPLE_SPLITS = "fawn.terasort.sample.splits";
  public static final int DEFAULT_SAMPLE_SPLITS = 10;
  /** Replicas of each output file (the stock TeraSort's default is 1 too). */
  public static final String OUTPUT_REPLICATION = SortRecordOutputFormat.REPLICATION;
  public static final int DEFAULT_OUTPUT_REPLICATION = 1;

  /**
   * Map-output compression: snappy through snappy-java (bundled in Hadoop's client, no
   * libhadoop needed) compressed teragen data 2.4x at ~550 MB/s here, deflate (java.util.zip)
   * 3.6x at ~35 MB/s (too slow: a map would spend seconds compressing), and Lz4Codec is not
   * usable at all without lz4-java, which Hadoop's client does not ship.
   */
  static final String CODEC = SnappyCodec.class.getName();

  private TeraSortConfig() {}

  static int sampleSize(Configuration conf) {
    return atLeastOne(conf, SAMPLE_SIZE, DEFAULT_SAMPLE_SIZE);
  }

  static int sampleSplits(Configuration conf) {
    return atLeastOne(conf, SAMPLE_SPLITS, DEFAULT_SAMPLE_SPLITS);
  }

  static int outputReplication(Configuration conf) {
    return atLeastOne(conf, OUTPUT_REPLICATION, DEFAULT_OUTPUT_REPLICATION);
  }

  /** -D mapreduce.job.reduces when given, else the vcores the cluster offers tasks. */
  static int reduces(Configuration conf) throws IOException {
    if (FrameworkTuning.isUserSet(conf, MRJobConfig.NUM_REDUCES)) {
      return atLeastOne(conf, MRJobConfig.NUM_REDUCES, 1);
    }
    return ClusterVcores.forJob(conf);
  }

  /** -D mapreduce.job.maps when given, else one map per vcore the cluster offers tasks. */
  static int maps(Configuration conf) throws IOException {
    if (FrameworkTuning.isUserSet(conf, MRJobConfig.NUM_MAPS)) {
      return atLeastOne(conf, MRJobConfig.NUM_MAPS, 1);
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

  private static int atLeastOne(Configuration conf, String key, int defaultValue) {
    String raw = conf.getTrimmed(key);
    if (raw == null) {
      return defaultValue;
    }
    try {
      int value = Integer.parseInt(raw);
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      throw new InvalidConfigException(key, key + " = '" + raw + "' is not a whole number", e);
    }
    throw new InvalidConfigException(key, key + " = " + raw + " must be at least 1");
  }
}
