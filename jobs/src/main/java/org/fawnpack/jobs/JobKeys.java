package org.fawnpack.jobs;

import java.util.ArrayList;
import java.util.List;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.jobs.md5.Md5Config;
import org.fawnpack.jobs.tera.TeraSortConfig;

/**
 * The jobs' configuration keys ({@code fawn.jobs.*}): the ones shared by every job and pi's are
 * here; each job with several keys keeps them beside its code ({@link WordCount2#TALLY_BYTES},
 * {@link TeraSortConfig}, {@link Md5Config}). {@link #KEYS} lists them all, in the order of
 * the configuration reference.
 */
public final class JobKeys {

  public static final ConfigKey<Boolean> PRINT_COUNTERS = ConfigKey.booleanKey(
      "fawn.jobs.print-counters", false, "Print every counter after the job, as Hadoop's"
      + " examples do. The JobHistory server keeps them either way.");

  /**
   * About 8 s of one desktop core at 7.5 ns a point, the order of what starting the containers
   * of a job costs; on wimpy nodes (several times slower a point) lower it.
   */
  public static final ConfigKey<Long> PI_UBER_MAX_POINTS = ConfigKey.longKey(
      "fawn.jobs.pi.uber-max-points", 1_000_000_000L, 0, Long.MAX_VALUE, "pi runs as an uber"
      + " job (maps one after another in the ApplicationMaster's container, on the vcores of"
      + " the largest node the maps may use) when the ApplicationMaster runs on the same nodes"
      + " as the maps (same node label; not when AMs go to the `master` label, as the profiles"
      + " set), maps \u00d7 samples is at most this, the maps are within"
      + " `mapreduce.job.ubertask.maxmaps` (9) and `mapreduce.job.ubertask.enable` is not set by"
      + " the user (`true` forces an uber job, on the AM's node whatever its label; `false`"
      + " never). 0 = never. The default is about 8 s of one desktop core; on nodes several"
      + " times slower a point, lower it.");

  public static final ConfigKey<String> KVCOUNT_DELIMITER = ConfigKey.stringKey(
      "fawn.jobs.kvcount.delimiter", "/", "kvcount: a key's prefix is what comes before the"
      + " first occurrence of this (`--delimiter` sets it); a key without it counts under the"
      + " empty prefix.");

  public static final ConfigKey<String> KVLOAD_SEPARATOR = ConfigKey.stringKey(
      "fawn.jobs.kvload.separator", "\\t", "a non-empty string", v -> !v.isEmpty(),
      "kvload: each line is a key, this, and a value, split at its first occurrence"
      + " (`--separator` sets it; `\\t` stands for a tab); a line without it, or with an"
      + " empty key, is skipped and counted.");

  /** kvload's separator as bytes, {@code \t} read as a tab. */
  public static byte[] kvloadSeparator(org.apache.hadoop.conf.Configuration conf) {
    return KVLOAD_SEPARATOR.read(conf::get).replace("\\t", "\t")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Every key of the jobs module. */
  public static final List<ConfigKey<?>> KEYS = all();

  private JobKeys() {}

  private static List<ConfigKey<?>> all() {
    List<ConfigKey<?>> keys = new ArrayList<>();
    keys.add(WordCount2.TALLY_BYTES);
    keys.add(PRINT_COUNTERS);
    keys.addAll(TeraSortConfig.KEYS);
    keys.add(PI_UBER_MAX_POINTS);
    keys.addAll(Md5Config.KEYS);
    keys.add(KVCOUNT_DELIMITER);
    keys.add(KVLOAD_SEPARATOR);
    return List.copyOf(keys);
  }
}
