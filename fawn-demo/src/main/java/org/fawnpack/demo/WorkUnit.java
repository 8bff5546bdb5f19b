package org.fawnpack.demo;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.fawnpack.jobs.md5.Md5Counter;
import org.fawnpack.jobs.pi.PiCounter;

/**
 * What a summary row counts as a job's work, for its work per joule. Input records fit the jobs
 * that read records; a generator reads one range per map and writes the records, pi writes
 * nothing and counts points, and md5search's work unit is the thesis's transformation (one MD5),
 * which is what each of those tools prints per joule itself.
 */
public enum WorkUnit {
  /** Records the maps read (Hadoop's MAP_INPUT_RECORDS), as JobEnergySummary's records/J. */
  INPUT_RECORDS("input records"),
  /** Records a map-only generator wrote (MAP_OUTPUT_RECORDS): teragen's rows, md5gen's values. */
  RECORDS_WRITTEN("records written"),
  /** Points pi generated (its SAMPLES counter). */
  POINTS("points"),
  /** MD5s md5search computed (its TRANSFORMATIONS counter). */
  TRANSFORMATIONS("MD5s (transformations)");

  private final String label;

  WorkUnit(String label) {
    this.label = label;
  }

  /** The unit's name in the summary table. */
  public String label() {
    return label;
  }

  /** How much of this work the job's counters say it did. */
  long count(Counters counters) {
    return switch (this) {
      case INPUT_RECORDS -> counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue();
      case RECORDS_WRITTEN -> counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue();
      case POINTS -> counters.findCounter(PiCounter.SAMPLES).getValue();
      case TRANSFORMATIONS -> counters.findCounter(Md5Counter.TRANSFORMATIONS).getValue();
    };
  }
}
