package org.fawnpack.energy;

import java.util.Locale;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;

/**
 * A finished job's energy, from its counters: joules, seconds and work done per joule. Input
 * bytes come from FileInputFormat's counter, or from FAWN's combined-split counter when
 * FileInputFormat's reads 0 (it does for every CombineFileSplit).
 */
public record JobEnergySummary(long energyMillijoules, long idleMillijoules, long samples,
    long gaps, long tasksMetered, long tasksUnmetered, long tasksEstimated, long inputRecords,
    long inputBytes, long wallMillis) {

  static final String FAWN_INPUT_GROUP = "org.fawnpack.input.FawnInputCounter";
  /** The FAWN-KV input formats' (online and snapshot) bytes of keys and values read. */
  static final String FAWN_KV_INPUT_GROUP = "org.fawnpack.kv.hadoop.FawnKvInputCounter";

  public static JobEnergySummary of(Counters counters, long wallMillis) {
    long fileBytes = value(counters.findCounter(FileInputFormatCounter.BYTES_READ));
    long fawnBytes = Math.max(value(counters.findCounter(FAWN_INPUT_GROUP, "BYTES_READ")),
        value(counters.findCounter(FAWN_KV_INPUT_GROUP, "BYTES_READ")));
    return new JobEnergySummary(
        value(counters.findCounter(EnergyCounter.ENERGY_MILLIJOULES)),
        value(counters.findCounter(EnergyCounter.IDLE_SHARE_MILLIJOULES)),
        value(counters.findCounter(EnergyCounter.SAMPLES)),
        value(counters.findCounter(EnergyCounter.METER_GAPS)),
        value(counters.findCounter(EnergyCounter.TASKS_METERED)),
        value(counters.findCounter(EnergyCounter.TASKS_UNMETERED)),
        value(counters.findCounter(EnergyCounter.TASKS_ESTIMATED)),
        value(counters.findCounter(TaskCounter.MAP_INPUT_RECORDS)),
        Math.max(fileBytes, fawnBytes),
        wallMillis);
  }

  private static long value(Counter counter) {
    return counter == null ? 0 : counter.getValue();
  }

  public double joules() {
    return energyMillijoules / 1000.0;
  }

  public double seconds() {
    return wallMillis / 1000.0;
  }

  public boolean metered() {
    return tasksMetered > 0;
  }

  /** Input records per joule; NaN when nothing was metered. */
  public double recordsPerJoule() {
    return energyMillijoules > 0 ? inputRecords / joules() : Double.NaN;
  }

  /** Input bytes per joule; NaN when nothing was metered. */
  public double bytesPerJoule() {
    return energyMillijoules > 0 ? inputBytes / joules() : Double.NaN;
  }

  /** One line for the end of a job's console output: input records and bytes per joule. */
  public String describe() {
    if (!metered()) {
      return notMetered();
    }
    return String.format(Locale.ROOT, "Energy: %.3f J in tasks over %.1f s; %s records/J, %s/J",
        joules(), seconds(), perJoule(recordsPerJoule()), bytes(bytesPerJoule())) + tail();
  }

  /**
   * The same line for a job whose work is not its input records (a generator's rows written,
   * pi's points, md5search's MD5s): {@code work} units of {@code unit} per joule instead.
   */
  public String describe(String unit, long work) {
    if (!metered()) {
      return notMetered();
    }
    return String.format(Locale.ROOT, "Energy: %.3f J in tasks over %.1f s; %s %s/J",
        joules(), seconds(), perJoule(work / joules()), unit) + tail();
  }

  /** The line for a job that failed before any of its tasks finished. */
  public static String failedBeforeAnyTask() {
    return "Energy: none (the job failed before any task finished, so no task asked a "
        + EnergyProtocol.SERVICE_NAME + " collector; see the job's diagnostics)";
  }

  private String notMetered() {
    if (tasksMetered + tasksUnmetered == 0) {
      // No task reached its end: nothing was asked, so "no collector answered" would mislead.
      return "Energy: not metered (no task finished, so none asked a "
          + EnergyProtocol.SERVICE_NAME + " collector)";
    }
    return String.format(Locale.ROOT, "Energy: not metered (no %s collector answered for any of "
        + "the %d tasks; see docs/energy.md)", EnergyProtocol.SERVICE_NAME,
        tasksMetered + tasksUnmetered);
  }

  private String tail() {
    return String.format(Locale.ROOT, " (%d of %d tasks metered, %d samples, %d gaps%s)",
        tasksMetered, tasksMetered + tasksUnmetered, samples, gaps,
        tasksEstimated > 0 ? ", ESTIMATED from a power model" : "");
  }

  private static String perJoule(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
  }

  private static String bytes(double value) {
    if (Double.isNaN(value)) {
      return "n/a B";
    }
    if (value >= 1 << 20) {
      return String.format(Locale.ROOT, "%.2f MiB", value / (1 << 20));
    }
    if (value >= 1 << 10) {
      return String.format(Locale.ROOT, "%.2f KiB", value / (1 << 10));
    }
    return String.format(Locale.ROOT, "%.0f B", value);
  }
}
