package org.fawnpack.jobs.pi;

/**
 * Counts the 2-D Halton points (bases 2 and 3) that fall inside the circle of radius 1/2 centred
 * in the unit square, the quasi-Monte-Carlo estimate of pi that Hadoop's QuasiMonteCarlo example
 * makes: point i is (radical inverse of i in base 2, in base 3).
 *
 * <p>The loop is where pi's time goes, so it allocates nothing and does no division per point:
 * the base-2 coordinate is the bit-reversed index, and the base-3 coordinate is kept as an exact
 * integer (the index's ternary digits reversed, over 3^33) that each step updates by adding and
 * removing powers of three, so no rounding accumulates however long the run.
 */
public final class HaltonCircle {
  /** Ternary digits kept: 3^33 < 2^53, so the reversed integer converts to double exactly. */
  static final int TERNARY_DIGITS = 33;
  /** Indices must stay below 3^33 (about 5.6e15) for the base-3 coordinate to be exact. */
  public static final long MAX_INDEX;
  private static final long[] POW3_REVERSED = new long[TERNARY_DIGITS];
  private static final double THREE_TO_33;

  static {
    long power = 1;
    for (int j = TERNARY_DIGITS - 1; j >= 0; j--) {
      POW3_REVERSED[j] = power;
      power *= 3;
    }
    MAX_INDEX = power - 1;
    THREE_TO_33 = power;
  }

  private HaltonCircle() {
  }

  /**
   * How many of the points with indices {@code first .. first + count - 1} lie inside the circle
   * (distance from the centre at most 1/2, as QuasiMonteCarlo counts them).
   */
  public static long countInside(long first, long count) {
    if (first < 0 || count < 0 || first > MAX_INDEX - count) {
      throw new IllegalArgumentException("Halton indices " + first + " + " + count
          + " must stay within [0, " + MAX_INDEX + "]");
    }
    int[] digits = new int[TERNARY_DIGITS];
    long reversed = 0; // sum of digit[j] * 3^(32 - j): the base-3 radical inverse times 3^33
    long n = first;
    for (int j = 0; j < TERNARY_DIGITS && n > 0; j++) {
      digits[j] = (int) (n % 3);
      reversed += digits[j] * POW3_REVERSED[j];
      n /= 3;
    }
    long inside = 0;
    long index = first;
    for (long i = 0; i < count; i++, index++) {
      double x = (Long.reverse(index) >>> 11) * 0x1.0p-53 - 0.5;
      double y = reversed / THREE_TO_33 - 0.5;
      if (x * x + y * y <= 0.25) {
        inside++;
      }
      // index + 1 in base 3: carry through the 2s, then bump the next digit.
      int j = 0;
      while (digits[j] == 2) {
        digits[j] = 0;
        reversed -= 2 * POW3_REVERSED[j];
        j++;
      }
      digits[j]++;
      reversed += POW3_REVERSED[j];
    }
    return inside;
  }
}
