package org.fawnpack.jobs.tera;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.Writable;

/** A record's 90-byte value, serialized as exactly its 90 bytes (no length prefix). */
public final class SortValue implements Writable {
  private final byte[] bytes = new byte[SortRecord.VALUE_BYTES];

  /** The value's bytes; callers may fill it in place. */
  public byte[] bytes() {
    return bytes;
  }

  /** Copies the value from {@code source} at {@code offset}. */
  public void set(byte[] source, int offset) {
    System.arraycopy(source, offset, bytes, 0, SortRecord.VALUE_BYTES);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.write(bytes);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    in.readFully(bytes);
  }
}
