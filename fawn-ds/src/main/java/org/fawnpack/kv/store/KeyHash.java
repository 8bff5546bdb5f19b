package org.fawnpack.kv.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 64-bit hash the index is built on. Keys are arbitrary bytes (not always uniform digests),
 * so they are mixed first; the index takes its bucket-group bits from the low end and the 15-bit
 * key fragment from the top 15 bits, which keeps the two independent.
 */
final class KeyHash {

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long M1 = 0x9E3779B97F4A7C15L;
  private static final long M2 = 0xC2B2AE3D27D4EB4FL;

  private KeyHash() {}

  static long of(byte[] key) {
    return of(key, 0, key.length);
  }

  /** The hash of the key held in {@code bytes[from, from+length)}: same as of a copy. */
  static long of(byte[] bytes, int from, int length) {
    long h = length * M1;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      h = Long.rotateLeft(h ^ ((long) LONGS.get(bytes, from + i) * M2), 31) * M1;
    }
    long tail = 0;
    for (int shift = 0; i < length; i++, shift += 8) {
      tail |= (bytes[from + i] & 0xffL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * M2), 31) * M1;
    return finish(h);
  }

  /**
   * The hash of the key held in {@code b[from, from+length)} (absolute indices; position and
   * limit untouched), heap or direct: the same as of a copy of those bytes.
   */
  static long of(java.nio.ByteBuffer b, int from, int length) {
    boolean little = b.order() == ByteOrder.LITTLE_ENDIAN;
    long h = length * M1;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      long word = little ? b.getLong(from + i) : Long.reverseBytes(b.getLong(from + i));
      h = Long.rotateLeft(h ^ (word * M2), 31) * M1;
    }
    long tail = 0;
    for (int shift = 0; i < length; i++, shift += 8) {
      tail |= (b.get(from + i) & 0xffL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * M2), 31) * M1;
    return finish(h);
  }

  /** A full avalanche, also used to derive the hashes of the later probe groups. */
  static long finish(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  /** The 15-bit key fragment kept in a bucket. */
  static int fragment(long hash) {
    return (int) (hash >>> 49);
  }
}
