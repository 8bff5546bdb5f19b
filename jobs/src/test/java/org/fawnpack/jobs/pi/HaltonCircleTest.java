package org.fawnpack.jobs.pi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The fast loop against the textbook definition of the Halton sequence, point by point. */
class HaltonCircleTest {

  /** Radical inverse of n in base b, digit by digit (the definition, no shortcuts). */
  private static double radicalInverse(long n, int base) {
    double value = 0;
    double scale = 1.0 / base;
    for (long rest = n; rest > 0; rest /= base) {
      value += (rest % base) * scale;
      scale /= base;
    }
    return value;
  }

  private static long naiveInside(long first, long count) {
    long inside = 0;
    for (long i = first; i < first + count; i++) {
      double x = radicalInverse(i, 2) - 0.5;
      double y = radicalInverse(i, 3) - 0.5;
      if (x * x + y * y <= 0.25) {
        inside++;
      }
    }
    return inside;
  }

  @Test
  void matchesTheDefinition_fromTheStart() {
    assertEquals(naiveInside(1, 200_000), HaltonCircle.countInside(1, 200_000));
  }

  @Test
  void matchesTheDefinition_pointByPoint_acrossTernaryCarries() {
    // 3^12 - 5 .. 3^12 + 5 crosses a twelve-digit carry (222...2 -> 1000...0) in base 3.
    long carry = 531_441;
    for (long i = carry - 5; i <= carry + 5; i++) {
      assertEquals(naiveInside(i, 1), HaltonCircle.countInside(i, 1), "index " + i);
    }
  }

  @Test
  void matchesTheDefinition_farIntoTheSequence() {
    long first = 7_000_000_123L; // where a map of a 10^10-point run starts
    assertEquals(naiveInside(first, 100_000), HaltonCircle.countInside(first, 100_000));
  }

  @Test
  void count_splitRanges_addUp() {
    assertEquals(HaltonCircle.countInside(1, 300_000),
        HaltonCircle.countInside(1, 100_000) + HaltonCircle.countInside(100_001, 200_000));
  }

  @Test
  void estimate_manyPoints_approachesPi() {
    long samples = 1_000_000;
    double estimate = 4.0 * HaltonCircle.countInside(1, samples) / samples;
    assertEquals(Math.PI, estimate, 1e-4); // quasi-Monte-Carlo error ~ (log N)^2 / N
  }

  @Test
  void count_indicesOutsideExactRange_rejected() {
    assertThrows(IllegalArgumentException.class, () -> HaltonCircle.countInside(-1, 1));
    assertThrows(IllegalArgumentException.class,
        () -> HaltonCircle.countInside(HaltonCircle.MAX_INDEX, 2));
  }
}
