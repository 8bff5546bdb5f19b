package org.fawnpack.minicluster;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;

/** One row of a demo or benchmark table. */
public record JobResult(String job, boolean succeeded, double wallSeconds, long mapContainers,
    long inputRecords, long outputRecords) {

  /** Reads the row from a finished job's counters. */
  public static JobResult of(String name, Job job, long wallMillis) throws IOException {
    Counters counters = job.getCounters();
    boolean ok = job.isSuccessful();
    return new JobResult(name, ok, wallMillis / 1000.0,
        counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
        counters.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue());
  }

  String toJson() {
    return String.format(java.util.Locale.ROOT,
        "{\"job\": \"%s\", \"succeeded\": %s, \"wall_seconds\": %.1f, \"map_containers\": %d, "
            + "\"input_records\": %d, \"output_records\": %d}",
        job, succeeded, wallSeconds, mapContainers, inputRecords, outputRecords);
  }
}
