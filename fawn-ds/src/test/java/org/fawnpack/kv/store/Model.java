package org.fawnpack.kv.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The oracle: a HashMap of what the datastore should hold, and the checks against it. */
final class Model {

  final Map<ByteBuffer, byte[]> entries = new HashMap<>();

  void put(byte[] key, byte[] value) {
    entries.put(ByteBuffer.wrap(key.clone()), value.clone());
  }

  boolean delete(byte[] key) {
    return entries.remove(ByteBuffer.wrap(key)) != null;
  }

  byte[] get(byte[] key) {
    return entries.get(ByteBuffer.wrap(key));
  }

  /** Every model key reads back its value, absent keys read null, and a scan equals the model. */
  void assertHeldBy(Datastore ds, List<byte[]> absentKeys) throws IOException {
    for (Map.Entry<ByteBuffer, byte[]> e : entries.entrySet()) {
      byte[] key = e.getKey().array();
      assertArrayEquals(e.getValue(), ds.get(key), () -> "value of " + hex(key));
      assertTrue(ds.contains(key));
    }
    for (byte[] key : absentKeys) {
      if (get(key) == null) {
        assertNull(ds.get(key), () -> "deleted or never written " + hex(key));
      }
    }
    assertEquals(new ContentMap(entries), scan(ds), "scan of " + ds.path());
    assertEquals(entries.size(), ds.size(), "live keys");
  }

  static Map<ByteBuffer, byte[]> scan(Datastore ds) throws IOException {
    Map<ByteBuffer, byte[]> seen = new HashMap<>();
    ds.scan((k, v) -> {
      if (seen.put(ByteBuffer.wrap(k), v) != null) {
        throw new AssertionError("scan returned " + hex(k) + " twice");
      }
    });
    // byte[] values compare by identity in Map.equals: wrap them for content equality.
    return new ContentMap(seen);
  }

  static byte[] randomBytes(Random random, int length) {
    byte[] b = new byte[length];
    random.nextBytes(b);
    return b;
  }

  static String hex(byte[] b) {
    StringBuilder s = new StringBuilder();
    for (byte x : b) {
      s.append(String.format("%02x", x));
    }
    return s.toString();
  }

  /** A map whose equals compares byte[] values by content. */
  static final class ContentMap extends HashMap<ByteBuffer, byte[]> {
    ContentMap(Map<ByteBuffer, byte[]> m) {
      super(m);
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Map<?, ?> other) || other.size() != size()) {
        return false;
      }
      for (Map.Entry<ByteBuffer, byte[]> e : entrySet()) {
        Object v = other.get(e.getKey());
        if (!(v instanceof byte[] bytes) || !java.util.Arrays.equals(bytes, e.getValue())) {
          return false;
        }
      }
      return true;
    }

    @Override
    public int hashCode() {
      return keySet().hashCode();
    }
  }
}
