package org.fawnpack.jobs.md5;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.hadoop.io.Writable;

/**
 * The thesis's intermediate value {@code value ‖ MD5(value)}: 4 value bytes then the 16 hash
 * bytes, serialised as exactly those 20 bytes (no length prefix: the size is fixed).
 */
public final class ValueDigestWritable implements Writable {
  static final int VALUE_BYTES = ValueRecords.RECORD_BYTES;
  static final int DIGEST_BYTES = 16;
  static final int BYTES = VALUE_BYTES + DIGEST_BYTES;

  private final byte[] bytes = new byte[BYTES];

  /** The backing array: value at 0..3, digest at 4..19; the mapper fills it in place. */
  byte[] bytes() {
    return bytes;
  }

  /** The value as an unsigned number. */
  public long value() {
    return ValueRecords.decode(bytes, 0);
  }

  /** True when the digest part equals the 16-byte {@code target}. */
  public boolean digestEquals(byte[] target) {
    return Arrays.equals(bytes, VALUE_BYTES, BYTES, target, 0, DIGEST_BYTES);
  }

  /** The digest as 32 lower-case hex digits. */
  public String digestHex() {
    return HexFormat.of().formatHex(bytes, VALUE_BYTES, BYTES);
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
  public String toString() {
    return value() + " " + digestHex();
  }
}
