package org.fawnpack.kv.hadoop;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.fawnpack.kv.store.KeyRange;

/**
 * One arc of an offline snapshot for one map: the snapshot's directory and the arc's line of
 * its manifest; located at the hosts that store most of the arc's log blocks.
 */
public final class SnapshotSplit extends InputSplit implements Writable {
  private String dir;
  private SnapshotManifest.Arc arc;
  private String[] hosts;

  /** For Hadoop's deserialisation. */
  public SnapshotSplit() {}

  SnapshotSplit(String dir, SnapshotManifest.Arc arc, String[] hosts) {
    this.dir = dir;
    this.arc = arc;
    this.hosts = hosts.clone();
  }

  String dir() {
    return dir;
  }

  SnapshotManifest.Arc arc() {
    return arc;
  }

  /** The arc's log bytes: never 0 (a log has a header), so no scheduler skips the split. */
  @Override
  public long getLength() {
    return arc.logBytes();
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, dir);
    out.writeLong(arc.range().startExclusive());
    out.writeLong(arc.range().endInclusive());
    Text.writeString(out, arc.file());
    out.writeLong(arc.logBytes());
    out.writeLong(arc.checkpointBytes());
    out.writeLong(arc.maxSequence());
    out.writeInt(arc.crc32c());
    WritableUtils.writeStringArray(out, hosts);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    dir = Text.readString(in);
    KeyRange range = new KeyRange(in.readLong(), in.readLong());
    arc = new SnapshotManifest.Arc(range, Text.readString(in), in.readLong(), in.readLong(),
        in.readLong(), in.readInt());
    hosts = WritableUtils.readStringArray(in);
  }

  @Override
  public String toString() {
    return "arc " + arc.range() + " of snapshot " + dir;
  }
}
