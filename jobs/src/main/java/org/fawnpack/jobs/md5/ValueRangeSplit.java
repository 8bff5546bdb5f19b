package org.fawnpack.jobs.md5;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/** One md5gen map's share of the value space: {@code count} values from {@code first}. */
public final class ValueRangeSplit extends InputSplit implements Writable {
  private long first;
  private long count;

  /** For Hadoop's deserialisation. */
  public ValueRangeSplit() {
  }

  ValueRangeSplit(long first, long count) {
    this.first = first;
    this.count = count;
  }

  long first() {
    return first;
  }

  long count() {
    return count;
  }

  @Override
  public long getLength() {
    return count * ValueRecords.RECORD_BYTES;
  }

  /** Generated, not read: any node will do. */
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
    return "values " + first + " .. " + (first + count - 1);
  }
}
