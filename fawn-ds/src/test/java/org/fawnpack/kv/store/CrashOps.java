package org.fawnpack.kv.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The operation stream of one crash-loop round, a pure function of (seed, index), so the child
 * that runs it and the parent that checks it agree on every operation without sending them.
 * Each value names its seed, operation index and key and is filled from them, so any value read
 * back can be checked on its own.
 */
final class CrashOps {

  /** One operation: a put (value non-null) or a delete of key number {@code key}. */
  record Op(int key, byte[] value) {
    boolean isPut() {
      return value != null;
    }
  }

  private final long seed;
  private final int keys;

  CrashOps(long seed, int keys) {
    this.seed = seed;
    this.keys = keys;
  }

  Op at(long index) {
    long h = mix(seed + index * 0x9E3779B97F4A7C15L);
    int key = (int) Long.remainderUnsigned(h >>> 8, keys);
    if (Long.remainderUnsigned(h, 100) < 20) {
      return new Op(key, null);
    }
    return new Op(key, value(index, key, 20 + (int) ((h >>> 40) % 280)));
  }

  private byte[] value(long index, int key, int length) {
    ByteBuffer b = ByteBuffer.allocate(length);
    b.putLong(seed).putLong(index).putInt(key);
    long filler = mix(seed ^ index);
    while (b.hasRemaining()) {
      b.put((byte) filler);
      filler = filler * 6364136223846793005L + 1442695040888963407L;
    }
    return b.array();
  }

  /** Whether {@code value} is one this kind of stream writes for {@code key}, intact. */
  static boolean wellFormed(byte[] value, int key) {
    if (value.length < 20) {
      return false;
    }
    ByteBuffer b = ByteBuffer.wrap(value);
    long seed = b.getLong();
    long index = b.getLong();
    if (b.getInt() != key) {
      return false;
    }
    byte[] expected = new CrashOps(seed, Integer.MAX_VALUE).value(index, key, value.length);
    return java.util.Arrays.equals(expected, value);
  }

  static byte[] keyOf(int key) {
    return ("key-" + key).getBytes(StandardCharsets.US_ASCII);
  }

  private static long mix(long x) {
    x = (x ^ (x >>> 33)) * 0xff51afd7ed558ccdL;
    x = (x ^ (x >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return x ^ (x >>> 33);
  }
}
