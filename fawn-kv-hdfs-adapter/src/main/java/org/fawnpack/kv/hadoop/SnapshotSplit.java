package org.fawnpack.kv.hadoop;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.mapreduce.InputSplit;
import org.fawnpack.kv.store.KeyRange;

/**
 * Arcs of an offline snapshot for one map, read one after another: the snapshot's directory and
 * the arcs' lines of its manifest; located at the hosts that store most of their log blocks.
 */
public final class SnapshotSplit extends InputSplit implements Writable {
  private String dir;
  private List<SnapshotManifest.Arc> arcs;
  private String[] hosts;

  /** For Hadoop's deserialisation. */
  public SnapshotSplit() {}

  SnapshotSplit(String dir, List<SnapshotManifest.Arc> arcs, String[] hosts) {
    this.dir = dir;
    this.arcs = List.copyOf(arcs);
    this.hosts = hosts.clone();
  }

  String dir() {
    return dir;
  }

  List<SnapshotManifest.Arc> arcs() {
    return arcs;
  }

  /** The arcs' log bytes: never 0 (a log has a header), so no scheduler skips the split. */
  @Override
  public long getLength() {
    return arcs.stream().mapToLong(SnapshotManifest.Arc::logBytes).sum();
  }

  @Override
  public String[] getLocations() {
    return hosts.clone();
  }

  @Override
  public void write(DataOutput out) throws IOException {
    Text.writeString(out, dir);
    out.writeInt(arcs.size());
    for (SnapshotManifest.Arc arc : arcs) {
      out.writeLong(arc.range().startExclusive());
      out.writeLong(arc.range().endInclusive());
      Text.writeString(out, arc.file());
      out.writeLong(arc.logBytes());
      out.writeLong(arc.checkpointBytes());
      out.writeLong(arc.maxSequence());
      out.writeInt(arc.crc32c());
    }
    WritableUtils.writeStringArray(out, hosts);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    dir = Text.readString(in);
    int count = in.readInt();
    List<SnapshotManifest.Arc> read = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      KeyRange range = new KeyRange(in.readLong(), in.readLong());
      read.add(new SnapshotManifest.Arc(range, Text.readString(in), in.readLong(),
          in.readLong(), in.readLong(), in.readInt()));
    }
    arcs = List.copyOf(read);
    hosts = WritableUtils.readStringArray(in);
  }

  @Override
  public String toString() {
    return arcs.size() + " arcs of snapshot " + dir + " from " + arcs.get(0).range();
  }
}
