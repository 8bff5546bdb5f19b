package org.fawnpack.jobs.tera;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * teragen's input: rows 0 .. {@value #ROWS}-1 cut into {@value #MAPS} contiguous ranges, one per
 * map; the reader hands out the row numbers of its range.
 */
public final class RowRangeInputFormat extends InputFormat<LongWritable, NullWritable> {
  /** Rows to generate (set by teragen from its argument). */
  public static final String ROWS = "fawn.teragen.rows";
  /** Ranges (maps) to cut the rows into (set by teragen). */
  public static final String MAPS = "fawn.teragen.maps";

  @Override
  public List<InputSplit> getSplits(JobContext context) {
    long rows = context.getConfiguration().getLong(ROWS, -1);
    int maps = context.getConfiguration().getInt(MAPS, -1);
    if (rows < 1 || maps < 1) {
      throw new IllegalStateException(ROWS + " and " + MAPS + " must be set by teragen: "
          + rows + ", " + maps);
    }
    List<InputSplit> splits = new ArrayList<>();
    for (RowRange range : RowRange.cut(rows, maps)) {
      splits.add(range);
    }
    return splits;
  }

  @Override
  public RecordReader<LongWritable, NullWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RowReader();
  }

  /** A contiguous range of rows. */
  public static final class RowRange extends InputSplit implements Writable {
    private long first;
    private long count;

    public RowRange() {
    }

    RowRange(long first, long count) {
      this.first = first;
      this.count = count;
    }

    /** {@code rows} cut into {@code parts} ranges whose sizes differ by at most one row. */
    static List<RowRange> cut(long rows, int parts) {
      int n = (int) Math.min(parts, rows);
      List<RowRange> ranges = new ArrayList<>(n);
      long base = rows / n;
      long extra = rows % n;
      long first = 0;
      for (int i = 0; i < n; i++) {
        long count = base + (i < extra ? 1 : 0);
        ranges.add(new RowRange(first, count));
        first += count;
      }
      return ranges;
    }

    public long first() {
      return first;
    }

    public long count() {
      return count;
    }

    @Override
    public long getLength() {
      return count * SortRecord.BYTES;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeLong(first);
      out.writeLong(count);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      first = in.readLong();
      count = in.readLong();
    }

    @Override
    public String toString() {
      return "rows " + first + " .. " + (first + count - 1);
    }
  }

  private static final class RowReader extends RecordReader<LongWritable, NullWritable> {
    private final LongWritable row = new LongWritable();
    private long next;
    private long end;
    private long first;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {
      RowRange range = (RowRange) split;
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
