package org.fawnpack.jobs.md5;

import java.io.IOException;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * The thesis's Map(): {@code (key, value) → (value[0], value ‖ MD5(value))}, where value[0] is
 * the value's least significant byte (the thesis's words; with big-endian records that is the
 * last byte), so the intermediate keys spread evenly over 256 groups.
 *
 * <p>The loop is the benchmark: one MessageDigest per task, the hash written straight into the
 * reused output value's array behind the 4 value bytes, no allocation per record. The number of
 * hashes goes to {@link Md5Counter#TRANSFORMATIONS} once, at the end.
 */
public final class Md5SearchMapper
    extends Mapper<NullWritable, BytesWritable, ByteWritable, ValueDigestWritable> {
  private final ByteWritable lowByte = new ByteWritable();
  private final ValueDigestWritable valueDigest = new ValueDigestWritable();
  private MessageDigest md5;
  private long transformations;

  @Override
  protected void setup(Context context) {
    md5 = newMd5();
  }

  static MessageDigest newMd5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("This JVM has no MD5 MessageDigest (every Java SE has one)",
          e);
    }
  }

  @Override
  protected void map(NullWritable key, BytesWritable record, Context context)
      throws IOException, InterruptedException {
    if (record.getLength() != ValueRecords.RECORD_BYTES) {
      throw new IOException("md5search records are " + ValueRecords.RECORD_BYTES + " bytes, got "
          + record.getLength());
    }
    byte[] out = valueDigest.bytes();
    System.arraycopy(record.getBytes(), 0, out, 0, ValueDigestWritable.VALUE_BYTES);
    hashInPlace(md5, out);
    transformations++;
    lowByte.set(out[ValueDigestWritable.VALUE_BYTES - 1]);
    context.write(lowByte, valueDigest);
  }

  /** {@code buf[4..20) = MD5(buf[0..4))}: value ‖ MD5(value) in one array. */
  static void hashInPlace(MessageDigest md5, byte[] buf) {
    md5.update(buf, 0, ValueDigestWritable.VALUE_BYTES);
    try {
      md5.digest(buf, ValueDigestWritable.VALUE_BYTES, ValueDigestWritable.DIGEST_BYTES);
    } catch (DigestException e) {
      throw new IllegalStateException("16 bytes are room for an MD5 digest", e);
    }
  }

  @Override
  protected void cleanup(Context context) {
    context.getCounter(Md5Counter.TRANSFORMATIONS).increment(transformations);
  }
}
