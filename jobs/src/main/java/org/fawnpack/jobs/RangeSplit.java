package org.fawnpack.jobs;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;

/**
 * A contiguous range {@code first .. first+count-1} of a job's own numbering, for jobs that
 * generate rather than read: pi's Halton points, md5gen's values, teragen's rows. Carries the
 * name of what it counts (for logs and the web UI) and the bytes each item stands for (what
 * MapReduce weighs a split by; 0 for pure computation). No locations: any node will do.
 *
 * <p>On the wire a version byte comes first, so a later layout can still read this one.
 */
public final class RangeSplit extends InputSplit implements Writable {

  static final byte VERSION = 1;

  private String items = "";
  private long first;
  private long count;
  private long bytesPerItem;

  /** For Hadoop's deserialisation. */
  public RangeSplit() {
  }

  public RangeSplit(String items, long first, long count, long bytesPerItem) {
    this.items = items;
    this.first = first;
    this.count = count;
    this.bytesPerItem = bytesPerItem;
  }

  /**
   * {@code total} items numbered from {@code start} cut into {@code parts} contiguous ranges
   * (fewer when there are fewer items) whose sizes differ by at most one, the larger first.
   */
  public static List<RangeSplit> cut(String items, long start, long total, int parts,
      long bytesPerItem) {
    int n = (int) Math.min(parts, total);
    List<RangeSplit> ranges = new ArrayList<>(n);
    long base = total / n;
    long extra = total % n;
    long first = start;
    for (int i = 0; i < n; i++) {
      long count = base + (i < extra ? 1 : 0);
      ranges.add(new RangeSplit(items, first, count, bytesPerItem));
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
    return count * bytesPerItem;
  }

  @Override
  public String[] getLocations() {
    return new String[0];
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(VERSION);
    out.writeUTF(items);
    out.writeLong(first);
    out.writeLong(count);
    out.writeLong(bytesPerItem);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    byte version = in.readByte();
    if (version != VERSION) {
      throw new IOException("range split of layout version " + version
          + ": this build reads version " + VERSION + " (job client and tasks of different "
          + "FAWN Pack versions?)");
    }
    items = in.readUTF();
    first = in.readLong();
    count = in.readLong();
    bytesPerItem = in.readLong();
  }

  @Override
  public String toString() {
    return items + " " + first + " .. " + (first + count - 1);
  }
}
