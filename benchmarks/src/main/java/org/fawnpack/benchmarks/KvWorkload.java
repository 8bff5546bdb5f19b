package org.fawnpack.benchmarks;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The keys and values of the FAWN-DS benchmark, computed from their number so no engine pays
 * for holding them: key i is 20 pseudo-random bytes (numbers at or past the entry count are the
 * misses), value i is a 200-byte slice of a random pool.
 */
final class KvWorkload {

  static final int KEY_BYTES = 20;
  private static final int POOL_BYTES = 1 << 20;

  final long entries;
  final int valueBytes;
  private final long seed;
  private final byte[] pool;

  KvWorkload(long entries, int valueBytes, long seed) {
    this.entries = entries;
    this.valueBytes = valueBytes;
    this.seed = seed;
    this.pool = new byte[POOL_BYTES];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < pool.length; i += 8) {
      long r = random.nextLong();
      for (int j = 0; j < 8; j++) {
        pool[i + j] = (byte) (r >>> (8 * j));
      }
    }
  }

  byte[] key(long i) {
    byte[] key = new byte[KEY_BYTES];
    long a = mix(seed + i * 0x9E3779B97F4A7C15L);
    long b = mix(a);
    long c = mix(b);
    for (int j = 0; j < 8; j++) {
      key[j] = (byte) (a >>> (8 * j));
      key[8 + j] = (byte) (b >>> (8 * j));
    }
    for (int j = 0; j < 4; j++) {
      key[16 + j] = (byte) (c >>> (8 * j));
    }
    return key;
  }

  private int valueStart(long i) {
    return (int) Math.floorMod(i * 8191, (long) (POOL_BYTES - valueBytes));
  }

  byte[] value(long i) {
    int from = valueStart(i);
    return Arrays.copyOfRange(pool, from, from + valueBytes);
  }

  boolean isValueOf(long i, byte[] value) {
    int from = valueStart(i);
    return value != null && Arrays.equals(value, 0, value.length, pool, from, from + valueBytes);
  }

  /** The user bytes of the whole load (keys and values). */
  long loadBytes() {
    return entries * (KEY_BYTES + valueBytes);
  }

  /** A pool slice to fill a plain sequential write with the same kind of bytes. */
  byte[] pool() {
    return pool;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
