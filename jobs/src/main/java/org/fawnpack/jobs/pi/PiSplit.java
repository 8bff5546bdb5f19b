package org.fawnpack.jobs.pi;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/** One map's share of the Halton sequence: {@code count} points from index {@code first}. */
public final class PiSplit extends InputSplit implements Writable {
  private long first;
  private long count;

  /** For Hadoop's deserialisation. */
  public PiSplit() {
  }

  PiSplit(long first, long count) {
    this.first = first;
    this.count = count;
  }

  long first() {
    return first;
  }

  long count() {
    return count;
  }

  /**
   * No input bytes: a pi map reads nothing. (The length is what MapReduce weighs a split by,
   * e.g. against {@code mapreduce.job.ubertask.maxbytes}; a point count there would make a
   * computation look like gigabytes of input.)
   */
  @Override
  public long getLength() {
    return 0;
  }

  /** Pure computation: any node will do. */
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
    return "Halton points " + first + " .. " + (first + count - 1);
  }
}
