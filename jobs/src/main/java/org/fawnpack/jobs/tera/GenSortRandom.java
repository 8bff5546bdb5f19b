package org.fawnpack.jobs.tera;

/**
 * The sort benchmark's random sequence (gensort): a 128-bit linear congruential generator
 * x' = a·x + c mod 2^128 with gensort's published a and c, started at 0. Row n's record is built
 * from the (n+1)-th value. {@link #seek} jumps to any row in 63 steps, so every map can start at
 * its own first row: the affine maps x → a·x + c compose, and the k-th power of the step is
 * x → A_k·x + C_k with A_{2k} = A_k², C_{2k} = C_k·(A_k + 1).
 *
 * <p>Not thread-safe; one instance per generating thread.
 */
final class GenSortRandom {
  private static final long A_HIGH = 0x2360ed051fc65da4L;
  private static final long A_LOW = 0x4385df649fccf645L;
  private static final long C_HIGH = 0x4a696d4772617952L;
  private static final long C_LOW = 0x4950202020202001L;

  /** A and C of the 2^i-fold step, high and low 64 bits each. */
  private static final long[] POW_A_HIGH = new long[63];
  private static final long[] POW_A_LOW = new long[63];
  private static final long[] POW_C_HIGH = new long[63];
  private static final long[] POW_C_LOW = new long[63];

  static {
    long ah = A_HIGH;
    long al = A_LOW;
    long ch = C_HIGH;
    long cl = C_LOW;
    for (int i = 0; i < 63; i++) {
      POW_A_HIGH[i] = ah;
      POW_A_LOW[i] = al;
      POW_C_HIGH[i] = ch;
      POW_C_LOW[i] = cl;
      // C_{2k} = C_k · (A_k + 1), A_{2k} = A_k · A_k
      long al1 = al + 1;
      long ah1 = al1 == 0 ? ah + 1 : ah;
      long nch = multiplyHigh128(ch, cl, ah1, al1);
      long ncl = cl * al1;
      long nah = multiplyHigh128(ah, al, ah, al);
      long nal = al * al;
      ah = nah;
      al = nal;
      ch = nch;
      cl = ncl;
    }
  }

  private long high;
  private long low;

  /** Positions the generator so that {@link #next} yields the value of row {@code row}. */
  void seek(long row) {
    if (row < 0) {
      throw new IllegalArgumentException("row must not be negative: " + row);
    }
    long h = 0;
    long l = 0;
    for (int i = 0; row != 0; i++, row >>>= 1) {
      if ((row & 1) != 0) {
        long nh = multiplyHigh128(h, l, POW_A_HIGH[i], POW_A_LOW[i]);
        long nl = l * POW_A_LOW[i];
        long sum = nl + POW_C_LOW[i];
        h = nh + POW_C_HIGH[i] + (Long.compareUnsigned(sum, nl) < 0 ? 1 : 0);
        l = sum;
      }
    }
    high = h;
    low = l;
  }

  /** Advances one step; the new value is in {@link #high()} and {@link #low()}. */
  void next() {
    long nh = multiplyHigh128(high, low, A_HIGH, A_LOW);
    long nl = low * A_LOW;
    long sum = nl + C_LOW;
    high = nh + C_HIGH + (Long.compareUnsigned(sum, nl) < 0 ? 1 : 0);
    low = sum;
  }

  long high() {
    return high;
  }

  long low() {
    return low;
  }

  /** The high 64 bits of (xh·2^64 + xl)·(yh·2^64 + yl) mod 2^128. */
  private static long multiplyHigh128(long xh, long xl, long yh, long yl) {
    return unsignedMultiplyHigh(xl, yl) + xl * yh + xh * yl;
  }

  private static long unsignedMultiplyHigh(long x, long y) {
    return Math.multiplyHigh(x, y) + ((x >> 63) & y) + ((y >> 63) & x);
  }
}
