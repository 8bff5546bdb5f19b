package org.fawnpack.jobs.tera;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import org.apache.hadoop.io.WritableComparable;
import org.apache.hadoop.io.WritableComparator;

/**
 * A record's 10-byte key. Serialized as exactly its 10 bytes, with no length prefix, so the map
 * output buffer holds 10 bytes per key (Text would add a length byte) and the raw comparator
 * compares the serialized bytes directly.
 */
public final class SortKey implements WritableComparable<SortKey> {
  private final byte[] bytes = new byte[SortRecord.KEY_BYTES];

  /** The key's bytes; callers may fill it in place. */
  public byte[] bytes() {
    return bytes;
  }

  /** Copies the key from {@code source} at {@code offset}. */
  public void set(byte[] source, int offset) {
    System.arraycopy(source, offset, bytes, 0, SortRecord.KEY_BYTES);
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.write(bytes);
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    in.readFully(bytes);
  }

  @Override
  public int compareTo(SortKey other) {
    return SortRecord.compareKeys(bytes, 0, other.bytes, 0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SortKey k && compareTo(k) == 0;
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return SortRecord.keyHex(bytes, 0);
  }

  /** Compares serialized keys without deserializing: unsigned bytes, 8 at a time. */
  public static final class Comparator extends WritableComparator {
    public Comparator() {
      super(SortKey.class);
    }

    @Override
    public int compare(byte[] b1, int s1, int l1, byte[] b2, int s2, int l2) {
      return compareBytes(b1, s1, SortRecord.KEY_BYTES, b2, s2, SortRecord.KEY_BYTES);
    }
  }

  static {
    WritableComparator.define(SortKey.class, new Comparator());
  }
}
