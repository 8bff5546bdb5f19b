package org.fawnpack.jobs.tera;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.fawnpack.jobs.RangeSplit;

/**
 * teragen's input: rows 0 .. {@value #ROWS}-1 cut into {@value #MAPS} contiguous ranges, one per
 * map; the reader hands out the row numbers of its range.
 */
public final class RowRangeInputFormat extends InputFormat<LongWritable, NullWritable> {
  /** Rows to generate (set by teragen from its argument). */
  public static final String ROWS = "fawn.jobs.teragen.rows";
  /** Ranges (maps) to cut the rows into (set by teragen). */
  public static final String MAPS = "fawn.jobs.teragen.maps";

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    long rows = context.getConfiguration().getLong(ROWS, -1);
    int maps = context.getConfiguration().getInt(MAPS, -1);
    if (rows < 1 || maps < 1) {
      throw new IllegalStateException(ROWS + " and " + MAPS + " must be set by teragen: "
          + rows + ", " + maps);
    }
    return new ArrayList<>(RangeSplit.cut("rows", 0, rows, maps, SortRecord.BYTES));
  }

  @Override
  public RecordReader<LongWritable, NullWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RowReader();
  }

  private static final class RowReader extends RecordReader<LongWritable, NullWritable> {
    private final LongWritable row = new LongWritable();
    private long next;
    private long end;
    private long first;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
      RangeSplit range = (RangeSplit) split;
      first = range.first();
      next = first;
      end = first + range.count();
    }

    @Override
    public boolean nextKeyValue() {
      if (next >= end) {
        return false;
      }
      row.set(next++);
      return true;
    }

    @Override
    public LongWritable getCurrentKey() {
      return row;
    }

    @Override
    public NullWritable getCurrentValue() {
      return NullWritable.get();
    }

    @Override
    public float getProgress() {
      return end == first ? 1f : (float) (next - first) / (end - first);
    }

    @Override
    public void close() {
    }
  }
}
