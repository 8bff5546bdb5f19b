package org.fawnpack.jobs;

import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Reads a {@link RangeSplit} as one record, (first, count): for maps that work through their
 * whole range themselves (pi counts points, md5gen writes values) rather than item by item.
 */
public final class RangeRecordReader extends RecordReader<LongWritable, LongWritable> {

  private RangeSplit split;
  private boolean read;

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context) {
    this.split = (RangeSplit) split;
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
