package org.fawnpack.energy.report;

import org.fawnpack.energy.report.JobHistoryClient.CounterValues;

/**
 * What a job's work is, read from its counters, for work per joule in the job's own unit (the
 * same units the pack's jobs and the demo print): pi's points, md5search's MD5s, a map-only
 * generator's records written (teragen, md5gen), else the records the maps read.
 */
record WorkMeasure(String unit, long amount) {

  static final String TASK = "org.apache.hadoop.mapreduce.TaskCounter";
  static final String PI = "org.fawnpack.jobs.pi.PiCounter";
  static final String MD5 = "org.fawnpack.jobs.md5.Md5Counter";

  static WorkMeasure of(CounterValues counters, int reduces) {
    if (counters.has(PI, "SAMPLES")) {
      return new WorkMeasure("points", counters.get(PI, "SAMPLES"));
    }
    if (counters.has(MD5, "TRANSFORMATIONS")) {
      return new WorkMeasure("MD5s (transformations)", counters.get(MD5, "TRANSFORMATIONS"));
    }
    if (reduces == 0 && counters.get(TASK, "MAP_OUTPUT_RECORDS")
        > counters.get(TASK, "MAP_INPUT_RECORDS")) {
      return new WorkMeasure("records written", counters.get(TASK, "MAP_OUTPUT_RECORDS"));
    }
    return new WorkMeasure("input records", counters.get(TASK, "MAP_INPUT_RECORDS"));
  }

  /** Work per joule; NaN without joules. */
  double perJoule(double joules) {
    return joules > 0 ? amount / joules : Double.NaN;
  }
}
