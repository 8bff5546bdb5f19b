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
 * Splits come from two settings, not from files: map i gets the points from index
 * {@code i × samples + 1}, as QuasiMonteCarlo numbers them, so nothing is written to HDFS before
 * the job (the stock example writes one input file per map) and the results match the stock
 * example's points. Each split yields one record: (first index, count).
 */
public final class PiInputFormat extends InputFormat<LongWritable, LongWritable> {
  static final String MAPS = "fawn.jobs.pi.maps";
  static final String SAMPLES_PER_MAP = "fawn.jobs.pi.samples-per-map";

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    Configuration conf = context.getConfiguration();
    int maps = conf.getInt(MAPS, 0);
    long samples = conf.getLong(SAMPLES_PER_MAP, 0);
    if (maps <= 0 || samples <= 0) {
      throw new IllegalStateException(MAPS + " and " + SAMPLES_PER_MAP + " must be positive (set "
          + "by the pi tool), were " + conf.get(MAPS) + " and " + conf.get(SAMPLES_PER_MAP));
    }
    List<InputSplit> splits = new ArrayList<>(maps);
    for (int i = 0; i < maps; i++) {
      splits.add(new PiSplit(i * samples + 1, samples));
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
