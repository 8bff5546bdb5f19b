package org.fawnpack.jobs.pi;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.fawnpack.jobs.RangeRecordReader;
import org.fawnpack.jobs.RangeSplit;

/**
 * Splits come from settings, not from files: the job counts the points with indices
 * {@code 1 .. maps × samples}, the stock QuasiMonteCarlo's points (its map i takes them from
 * {@code i × samples + 1}), so nothing is written to HDFS before the job (the stock example
 * writes one input file per map) and the results match the stock example's. The points are cut
 * into {@value #TASKS} contiguous, near-equal splits (one per map when it equals the maps); a
 * count is a sum, so the result is the same however they are cut. Each split yields one record:
 * (first index, count).
 */
public final class PiInputFormat extends InputFormat<LongWritable, LongWritable> {
  static final String MAPS = "fawn.jobs.pi.maps";
  static final String SAMPLES_PER_MAP = "fawn.jobs.pi.samples-per-map";
  /** Map tasks to cut the points into (set by the tool); unset, one per map. */
  static final String TASKS = "fawn.jobs.pi.tasks";

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    Configuration conf = context.getConfiguration();
    int maps = conf.getInt(MAPS, 0);
    long samples = conf.getLong(SAMPLES_PER_MAP, 0);
    if (maps <= 0 || samples <= 0) {
      throw new IllegalStateException(MAPS + " and " + SAMPLES_PER_MAP + " must be positive (set "
          + "by the pi tool), were " + conf.get(MAPS) + " and " + conf.get(SAMPLES_PER_MAP));
    }
    int tasks = conf.getInt(TASKS, maps);
    if (tasks <= 0 || tasks > maps) {
      throw new IllegalStateException(TASKS + " must be between 1 and " + MAPS + " (" + maps
          + "), was " + tasks);
    }
    // No input bytes: a pi map reads nothing. (MapReduce weighs a split by its length, e.g.
    // against mapreduce.job.ubertask.maxbytes: a point count there would look like gigabytes.)
    return new ArrayList<>(RangeSplit.cut("Halton points", 1, maps * samples, tasks, 0));
  }

  @Override
  public RecordReader<LongWritable, LongWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RangeRecordReader();
  }
}
