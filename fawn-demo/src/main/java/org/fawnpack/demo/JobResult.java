package org.fawnpack.demo;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.fawnpack.energy.JobEnergySummary;

/**
 * One row of a demo or benchmark table; the energy columns come from the tasks' energy counters
 * ({@code joules} is NaN when no task was metered). {@code work} is the job's own work unit (input
 * records for most jobs, points for pi, MD5s for md5search), so work per joule means what the
 * tool itself prints. {@code check} says what the demo verified about the job's output, or why
 * the row failed; empty when nothing was checked. {@code jobId} is null when the job never got
 * one (it failed before submission).
 */
public record JobResult(String job, boolean succeeded, double wallSeconds, long mapContainers,
    long inputRecords, long outputRecords, double joules, boolean energyEstimated,
    WorkUnit workUnit, long work, String check, String jobId) {

  /** Reads the row from a finished job's counters, counting input records as its work. */
  public static JobResult of(String name, Job job, long wallMillis) throws IOException {
    return of(name, job, wallMillis, WorkUnit.INPUT_RECORDS);
  }

  /** Reads the row from a finished job's counters, counting {@code unit} as its work. */
  public static JobResult of(String name, Job job, long wallMillis, WorkUnit unit)
      throws IOException {
    Counters counters = job.getCounters();
    if (counters == null) {
      // A failed job's counters can be unavailable (no JobHistory record): show zeros, not crash.
      counters = new Counters();
    }
    JobEnergySummary energy = JobEnergySummary.of(counters, wallMillis);
    // A map-only job's output is what its maps wrote; REDUCE_OUTPUT_RECORDS stays 0 there.
    TaskCounter output = job.getNumReduceTasks() == 0 ? TaskCounter.MAP_OUTPUT_RECORDS
        : TaskCounter.REDUCE_OUTPUT_RECORDS;
    return new JobResult(name, job.isSuccessful(), wallMillis / 1000.0,
        counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
        counters.findCounter(output).getValue(),
        energy.metered() ? energy.joules() : Double.NaN,
        energy.tasksEstimated() > 0, unit, unit.count(counters), "",
        job.getJobID() == null ? null : job.getJobID().toString());
  }

  /** This row with what was verified about the job's output. */
  public JobResult checked(String what) {
    return new JobResult(job, succeeded, wallSeconds, mapContainers, inputRecords, outputRecords,
        joules, energyEstimated, workUnit, work, what, jobId);
  }

  /** This row under another name (one tool run twice over different inputs). */
  public JobResult named(String name) {
    return new JobResult(name, succeeded, wallSeconds, mapContainers, inputRecords,
        outputRecords, joules, energyEstimated, workUnit, work, check, jobId);
  }

  /** This row marked failed, with the reason. */
  public JobResult failed(String why) {
    return new JobResult(job, false, wallSeconds, mapContainers, inputRecords, outputRecords,
        joules, energyEstimated, workUnit, work, why, jobId);
  }

  /** Input records per joule (as JobEnergySummary computes it); NaN when nothing was metered. */
  public double recordsPerJoule() {
    return perJoule(inputRecords);
  }

  /** The row's work per joule; NaN when nothing was metered. */
  public double workPerJoule() {
    return perJoule(work);
  }

  private double perJoule(long amount) {
    return joules > 0 ? amount / joules : Double.NaN;
  }

  String toJson() {
    return String.format(Locale.ROOT,
        "{\"job\": %s, \"succeeded\": %s, \"wall_seconds\": %.1f, \"map_containers\": %d, "
            + "\"input_records\": %d, \"output_records\": %d, \"joules\": %s, "
            + "\"records_per_joule\": %s, \"energy_estimated\": %s, \"work_unit\": %s, "
            + "\"work\": %d, \"work_per_joule\": %s, \"check\": %s}",
        jsonString(job), succeeded, wallSeconds, mapContainers, inputRecords, outputRecords,
        jsonNumber(joules, "%.3f"), jsonNumber(recordsPerJoule(), "%.1f"), energyEstimated,
        jsonString(workUnit.label()), work, jsonNumber(workPerJoule(), "%.1f"),
        jsonString(check));
  }

  private static String jsonNumber(double value, String format) {
    return Double.isNaN(value) ? "null" : String.format(Locale.ROOT, format, value);
  }

  /** A JSON string literal: checks quote job output and error messages, which may hold anything. */
  static String jsonString(String text) {
    StringBuilder json = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\t' -> json.append("\\t");
        case '\r' -> json.append("\\r");
        default -> {
          if (c < 0x20) {
            json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"').toString();
  }
}
