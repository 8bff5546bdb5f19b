package org.fawnpack.jobs.md5;

import java.io.IOException;
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
 * md5gen's input: no files, the value space 0 .. 2^bits - 1 cut into one even range per map.
 * Each split yields one record: (first value, count).
 */
public final class ValueRangeInputFormat extends InputFormat<LongWritable, LongWritable> {

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    long values = 1L << Md5Config.bits(conf);
    long[] cuts = ValueRecords.evenCuts(values, Md5Config.maps(conf, values));
    List<InputSplit> splits = new ArrayList<>(cuts.length - 1);
    for (int i = 0; i + 1 < cuts.length; i++) {
      splits.add(new ValueRangeSplit(cuts[i], cuts[i + 1] - cuts[i]));
    }
    return splits;
  }

  @Override
  public RecordReader<LongWritable, LongWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RangeReader();
  }

  /** The split itself as the one record. */
  private static final class RangeReader extends RecordReader<LongWritable, LongWritable> {
    private ValueRangeSplit split;
    private boolean read;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
      this.split = (ValueRangeSplit) split;
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
