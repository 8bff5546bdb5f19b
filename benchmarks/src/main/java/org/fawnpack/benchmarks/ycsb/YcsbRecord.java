package org.fawnpack.benchmarks.ycsb;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;

/**
 * A YCSB record (named fields) as one FAWN-KV value: a field count, then each field's name and
 * bytes, each length-prefixed. FAWN-KV stores values whole, so the binding reads and writes
 * records as one value.
 */
final class YcsbRecord {

  private YcsbRecord() {}

  static byte[] encode(Map<String, ByteIterator> fields) {
    Map<byte[], byte[]> raw = new LinkedHashMap<>();
    int size = Integer.BYTES;
    for (Map.Entry<String, ByteIterator> e : fields.entrySet()) {
      byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
      byte[] value = e.getValue().toArray();
      raw.put(name, value);
      size += 2 * Integer.BYTES + name.length + value.length;
    }
    ByteBuffer out = ByteBuffer.allocate(size).putInt(raw.size());
    raw.forEach((name, value) -> out.putInt(name.length).put(name).putInt(value.length)
        .put(value));
    return out.array();
  }

  /**
   * Puts the fields of {@code value} named in {@code wanted} (all when null) into {@code into}.
   *
   * @throws IllegalArgumentException when {@code value} is not an encoded record
   */
  static void decode(byte[] value, Set<String> wanted, Map<String, ByteIterator> into) {
    ByteBuffer in = ByteBuffer.wrap(value);
    try {
      int count = in.getInt();
      for (int i = 0; i < count; i++) {
        byte[] name = new byte[checkedLength(in)];
        in.get(name);
        byte[] bytes = new byte[checkedLength(in)];
        in.get(bytes);
        String field = new String(name, StandardCharsets.UTF_8);
        if (wanted == null || wanted.contains(field)) {
          into.put(field, new ByteArrayByteIterator(bytes));
        }
      }
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("not a YCSB record: " + value.length
          + " bytes end inside a field", e);
    }
    if (in.hasRemaining()) {
      throw new IllegalArgumentException("not a YCSB record: " + in.remaining()
          + " bytes after its last field");
    }
  }

  private static int checkedLength(ByteBuffer in) {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IllegalArgumentException("not a YCSB record: a field of " + length
          + " bytes where " + in.remaining() + " remain");
    }
    return length;
  }
}
