package org.fawnpack.jobs.md5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The map's hash-in-place and the intermediate value against java's MessageDigest. */
class Md5SearchMapperTest {

  /** MD5 of the value's 4 big-endian bytes, the plain way. */
  static byte[] oracleMd5(long value) throws Exception {
    byte[] record = ByteBuffer.allocate(4).putInt((int) value).array();
    return MessageDigest.getInstance("MD5").digest(record);
  }

  @Test
  void hashInPlace_sameDigestAsMessageDigestForRandomValuesWithOneReusedDigest() throws Exception {
    MessageDigest reused = Md5SearchMapper.newMd5();
    ValueDigestWritable pair = new ValueDigestWritable();
    Random random = new Random(42);
    for (int i = 0; i < 10_000; i++) {
      long value = random.nextLong() & 0xFFFFFFFFL;
      ValueRecords.encode(value, pair.bytes(), 0);
      Md5SearchMapper.hashInPlace(reused, pair.bytes());
      assertEquals(value, pair.value());
      assertArrayEquals(oracleMd5(value), Arrays.copyOfRange(pair.bytes(), 4, 20), "value " + value);
      assertTrue(pair.digestEquals(oracleMd5(value)));
    }
  }

  @Test
  void hashInPlace_knownDigestOfZero() {
    // md5(00 00 00 00), as `printf '\0\0\0\0' | md5sum` prints it.
    ValueDigestWritable pair = new ValueDigestWritable();
    Md5SearchMapper.hashInPlace(Md5SearchMapper.newMd5(), pair.bytes());
    assertEquals("f1d3ff8443297732862df21dc4e57262", pair.digestHex());
  }

  @Test
  void digestEquals_otherHash_false() throws Exception {
    ValueDigestWritable pair = new ValueDigestWritable();
    ValueRecords.encode(7, pair.bytes(), 0);
    Md5SearchMapper.hashInPlace(Md5SearchMapper.newMd5(), pair.bytes());
    assertFalse(pair.digestEquals(oracleMd5(8)));
  }

  @Test
  void write_readFields_roundTripsExactly20Bytes() throws Exception {
    ValueDigestWritable pair = new ValueDigestWritable();
    ValueRecords.encode(0xCAFEBABEL, pair.bytes(), 0);
    Md5SearchMapper.hashInPlace(Md5SearchMapper.newMd5(), pair.bytes());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    pair.write(new DataOutputStream(bytes));
    assertEquals(20, bytes.size());
    ValueDigestWritable back = new ValueDigestWritable();
    back.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    assertEquals(0xCAFEBABEL, back.value());
    assertEquals(HexFormat.of().formatHex(oracleMd5(0xCAFEBABEL)), back.digestHex());
  }

  @Test
  void evenCuts_sizesDifferByAtMostOneAndCoverAll() {
    assertArrayEquals(new long[] {0, 4, 8, 11, 14}, ValueRecords.evenCuts(14, 4));
    assertArrayEquals(new long[] {0, 1, 2, 3}, ValueRecords.evenCuts(3, 3));
  }

  @Test
  void encode_decode_bigEndianUnsigned() {
    byte[] buf = new byte[4];
    ValueRecords.encode(0x01020304L, buf, 0);
    assertArrayEquals(new byte[] {1, 2, 3, 4}, buf);
    ValueRecords.encode(0xFFFFFFFFL, buf, 0);
    assertEquals(0xFFFFFFFFL, ValueRecords.decode(buf, 0));
  }
}
