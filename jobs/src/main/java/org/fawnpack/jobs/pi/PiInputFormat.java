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
    long points = maps * samples;
    List<InputSplit> splits = new ArrayList<>(tasks);
    for (int i = 0; i < tasks; i++) {
      long first = 1 + points / tasks * i + Math.min(i, points % tasks);
      long count = points / tasks + (i < points % tasks ? 1 : 0);
      splits.add(new PiSplit(first, count));
    }
    return splits;
  }

  @Override
  public RecordReader<LongWritable, LongWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new SingleRecordReader();
  }

  /** The split itself as the one record. */
  private static final class SingleRecordReader extends RecordReader<LongWritable, LongWritable> {
    private PiSplit split;
    private boolean read;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
      this.split = (PiSplit) split;
    }

    @Override
    public boolean nextKeyValue() {
      if (read) {
        return false;
      }
      read = true;
      return true;
    }

    @Override
    public LongWritable getCurrentKey() {
      return new LongWritable(split.first());
    }

    @Override
    public LongWritable getCurrentValue() {
      return new LongWritable(split.count());
    }

    @Override
    public float getProgress() {
      return read ? 1f : 0f;
    }

    @Override
    public void close() {
    }
  }
}
