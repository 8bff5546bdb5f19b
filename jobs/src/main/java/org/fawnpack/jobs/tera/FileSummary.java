package org.fawnpack.jobs.tera;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.io.Writable;

/**
 * What a teravalidate map learnt about one file: its record count, CRC32 sum, first and last
 * keys (to check the order across files) and its misordered records, the first few described.
 */
public final class FileSummary implements Writable {
  /** Misorders described per file; the rest are only counted. */
  static final int EXAMPLES = 5;

  long records;
  long misordered;
  final Checksum128 checksum = new Checksum128();
  final byte[] firstKey = new byte[SortRecord.KEY_BYTES];
  final byte[] lastKey = new byte[SortRecord.KEY_BYTES];
  final List<String> examples = new ArrayList<>();

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeLong(records);
    out.writeLong(misordered);
    out.writeLong(checksum.high());
    out.writeLong(checksum.low());
    out.write(firstKey);
    out.write(lastKey);
    out.writeInt(examples.size());
    for (String example : examples) {
      out.writeUTF(example);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    records = in.readLong();
    misordered = in.readLong();
    long high = in.readLong();
    checksum.set(high, in.readLong());
    in.readFully(firstKey);
    in.readFully(lastKey);
    examples.clear();
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      examples.add(in.readUTF());
    }
  }
}
