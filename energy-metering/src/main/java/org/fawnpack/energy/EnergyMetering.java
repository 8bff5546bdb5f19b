package org.fawnpack.energy;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * Puts energy counters into any MapReduce job (new API) with one call:
 * {@code EnergyMetering.enable(job)} after the job's output format is set. Each map and reduce
 * task then asks its NodeManager's {@code fawn_energy} collector for its container's joules as it
 * finishes, and adds {@link EnergyCounter}s. On nodes without a collector the tasks log it once
 * and count themselves in TASKS_UNMETERED; the job never fails because of metering.
 */
public final class EnergyMetering {
  /** Whether a driver that honours it (every job in fawn-jobs.jar) meters the job. */
  public static final String ENABLED_KEY = EnergyKeys.METERING.name();
  /** The job's real output format while {@link MeteringOutputFormat} stands in front of it. */
  public static final String DELEGATE_KEY = EnergyKeys.METERING_OUTPUT_FORMAT.name();

  private EnergyMetering() {
  }

  /**
   * Meters the job. Call it after {@code setOutputFormatClass}: a later call replaces the
   * metering wrapper. Calling it twice is harmless.
   */
  public static void enable(Job job) {
    Configuration conf = job.getConfiguration();
    Class<?> current = conf.getClass(MRJobConfig.OUTPUT_FORMAT_CLASS_ATTR, TextOutputFormat.class);
    if (current != MeteringOutputFormat.class) {
      conf.setClass(DELEGATE_KEY, current, OutputFormat.class);
      job.setOutputFormatClass(MeteringOutputFormat.class);
    }
    conf.setBoolean(ENABLED_KEY, true);
  }

  /** True when the job's output format is the metering wrapper. */
  public static boolean isEnabled(Configuration conf) {
    return conf.getClass(MRJobConfig.OUTPUT_FORMAT_CLASS_ATTR, TextOutputFormat.class)
        == MeteringOutputFormat.class;
  }

  /**
   * For drivers: meters the job unless {@code fawn.energy.metering} says otherwise
   * ({@code defaultOn} when unset). Returns whether the job is metered.
   *
   * @throws org.fawnpack.conf.InvalidConfigValueException when the key is neither true nor false
   */
  public static boolean enableUnlessDisabled(Job job, boolean defaultOn) {
    String raw = job.getConfiguration().getTrimmed(ENABLED_KEY);
    if (raw == null ? defaultOn : EnergyKeys.METERING.parse(raw)) {
      enable(job);
      return true;
    }
    return false;
  }
}
