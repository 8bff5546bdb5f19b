package org.fawnpack.jobs.kv;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/** A count of records and of their key and value bytes; written as {@code records TAB bytes}. */
public final class RecordsAndBytes implements Writable {
  private long records;
  private long bytes;

  public RecordsAndBytes() {}

  void set(long records, long bytes) {
    this.records = records;
    this.bytes = bytes;
  }

  long records() {
    return records;
  }

  long bytes() {
    return bytes;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeLong(records);
    out.writeLong(bytes);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    records = in.readLong();
    bytes = in.readLong();
  }

  @Override
  public String toString() {
    return records + "\t" + bytes;
  }
}
