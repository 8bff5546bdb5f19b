package org.fawnpack.minicluster;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.fawnpack.energy.JobEnergySummary;

/**
 * One row of a demo or benchmark table; the energy columns come from the tasks' energy counters
 * ({@code joules} is NaN when no task was metered).
 */
public record JobResult(String job, boolean succeeded, double wallSeconds, long mapContainers,
    long inputRecords, long outputRecords, double joules, double recordsPerJoule,
    boolean energyEstimated) {

  /** Reads the row from a finished job's counters. */
  public static JobResult of(String name, Job job, long wallMillis) throws IOException {
    Counters counters = job.getCounters();
    boolean ok = job.isSuccessful();
    JobEnergySummary energy = JobEnergySummary.of(counters, wallMillis);
    return new JobResult(name, ok, wallMillis / 1000.0,
        counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
        counters.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue(),
        energy.metered() ? energy.joules() : Double.NaN,
        energy.recordsPerJoule(),
        energy.tasksEstimated() > 0);
  }

  String toJson() {
    return String.format(Locale.ROOT,
        "{\"job\": \"%s\", \"succeeded\": %s, \"wall_seconds\": %.1f, \"map_containers\": %d, "
            + "\"input_records\": %d, \"output_records\": %d, \"joules\": %s, "
            + "\"records_per_joule\": %s, \"energy_estimated\": %s}",
        job, succeeded, wallSeconds, mapContainers, inputRecords, outputRecords,
        jsonNumber(joules, "%.3f"), jsonNumber(recordsPerJoule, "%.1f"), energyEstimated);
  }

  private static String jsonNumber(double value, String format) {
    return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, format, value);
  }
}
