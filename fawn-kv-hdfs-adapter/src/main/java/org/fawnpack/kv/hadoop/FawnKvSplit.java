package org.fawnpack.kv.hadoop;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputSplit;
import org.fawnpack.kv.store.KeyRange;

/**
 * What one map reads: ranges of the ring (each inside one arc when planned; a whole arc, a
 * part cut from a large one, or several small arcs with the same tail), each with the last
 * sequence number its arc's tail had at planning (the cut of a point-in-time read), the live
 * bytes they are estimated to hold (never 0, so no scheduler skips the split), and the hosts
 * that serve them, the tails' first.
 */
public final class FawnKvSplit extends InputSplit implements Writable {
  private List<KeyRange> ranges = new ArrayList<>();
  private long[] cuts = new long[0];
  private long bytes;
  private String[] hosts = new String[0];

  /** For Hadoop's deserialisation. */
  public FawnKvSplit() {}

  public FawnKvSplit(List<KeyRange> ranges, long bytes, List<String> hosts) {
    this(ranges, new long[ranges.size()], bytes, hosts);
  }

  public FawnKvSplit(List<KeyRange> ranges, long[] cuts, long bytes, List<String> hosts) {
    if (ranges.isEmpty() || cuts.length != ranges.size()) {
      throw new IllegalArgumentException("a split reads at least one range, each with its cut");
    }
    this.ranges = List.copyOf(ranges);
    this.cuts = cuts.clone();
    this.bytes = Math.max(1, bytes);
    this.hosts = hosts.toArray(new String[0]);
  }

  public List<KeyRange> ranges() {
    return ranges;
  }

  /**
   * The cut of range {@code i}: its arc's tail's last sequence number at planning (0: the arc
   * was empty; -1: its tail gave none).
   */
  public long cut(int i) {
    return cuts[i];
  }

  @Override
  public long getLength() {
    return bytes;
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeInt(ranges.size());
    for (int i = 0; i < ranges.size(); i++) {
      out.writeLong(ranges.get(i).startExclusive());
      out.writeLong(ranges.get(i).endInclusive());
      out.writeLong(cuts[i]);
    }
    out.writeLong(bytes);
    out.writeInt(hosts.length);
    for (String h : hosts) {
      Text.writeString(out, h);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    int count = in.readInt();
    if (count < 1 || count > 1_000_000) {
      throw new IOException("a FAWN-KV split with " + count + " ranges");
    }
    List<KeyRange> read = new ArrayList<>(count);
    cuts = new long[count];
    for (int i = 0; i < count; i++) {
      read.add(new KeyRange(in.readLong(), in.readLong()));
      cuts[i] = in.readLong();
    }
    ranges = List.copyOf(read);
    bytes = in.readLong();
    int hostCount = in.readInt();
    if (hostCount < 0 || hostCount > 1024) {
      throw new IOException("a FAWN-KV split with " + hostCount + " hosts");
    }
    hosts = new String[hostCount];
    for (int i = 0; i < hostCount; i++) {
      hosts[i] = Text.readString(in);
    }
  }

  @Override
  public String toString() {
    return "FawnKvSplit" + ranges + " ~" + bytes + " bytes on " + String.join(",", hosts);
  }
}
