package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ApportionTest {
  private static final MathContext MC = MathContext.DECIMAL128;

  /** The exact proportional share, computed with BigDecimal so it does not share the code's doubles. */
  private static BigDecimal exactShare(long total, double[] weights, int i) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double w : weights) {
      sum = sum.add(new BigDecimal(w));
    }
    if (sum.signum() == 0) {
      return BigDecimal.valueOf(total).divide(BigDecimal.valueOf(weights.length), MC);
    }
    return BigDecimal.valueOf(total).multiply(new BigDecimal(weights[i])).divide(sum, MC);
  }

  private static void assertExactAndProportional(long total, double[] weights, long[] parts) {
    assertEquals(weights.length, parts.length);
    long sum = 0;
    for (int i = 0; i < parts.length; i++) {
      assertTrue(parts[i] >= 0, "negative part " + parts[i]);
      sum += parts[i];
      BigDecimal off = BigDecimal.valueOf(parts[i]).subtract(exactShare(total, weights, i)).abs();
      assertTrue(off.compareTo(BigDecimal.ONE) < 0, "part " + i + " = " + parts[i]
          + " is " + off + " µJ from its exact share; total " + total);
    }
    assertEquals(total, sum, "parts must add up to the total exactly");
  }

  @Test
  void split_randomWeights_sumExactlyWithinOneMicrojoule() {
    Random random = new Random(20240611L);
    for (int round = 0; round < 20_000; round++) {
      int n = 1 + random.nextInt(12);
      double[] weights = new double[n];
      for (int i = 0; i < n; i++) {
        switch (random.nextInt(5)) {
          case 0 -> weights[i] = 0;
          case 1 -> weights[i] = random.nextInt(64); // vcores-like
          case 2 -> weights[i] = random.nextDouble(); // alive fractions
          case 3 -> weights[i] = random.nextDouble() * 1e13; // CPU nanos deltas
          default -> weights[i] = random.nextInt(8) * random.nextDouble();
        }
      }
      long total = switch (random.nextInt(4)) {
        case 0 -> random.nextInt(10); // fewer µJ than parts
        case 1 -> random.nextInt(1_000_000);
        case 2 -> (long) (random.nextDouble() * 1e12); // up to a MJ in one interval
        default -> 1L + random.nextInt(Integer.MAX_VALUE);
      };
      assertExactAndProportional(total, weights, Apportion.split(total, weights));
    }
  }

  @Test
  void split_knownCases_expectedParts() {
    assertArrayEquals(new long[] {3, 1}, Apportion.split(4, new double[] {3, 1}));
    assertArrayEquals(new long[] {6_000_000, 3_000_000},
        Apportion.split(9_000_000, new double[] {2, 1}));
    // 10 / 3 = 3.33..: the one left over goes to the largest remainder, ties to the lowest index.
    assertArrayEquals(new long[] {4, 3, 3}, Apportion.split(10, new double[] {1, 1, 1}));
    // 2/3 of 5 = 3.33, 1/3 of 5 = 1.67: the spare µJ goes to the 0.67 remainder.
    assertArrayEquals(new long[] {3, 2}, Apportion.split(5, new double[] {2, 1}));
    assertArrayEquals(new long[] {0, 7, 0}, Apportion.split(7, new double[] {0, 0.25, 0}));
  }

  @Test
  void split_zeroWeights_equalParts() {
    assertArrayEquals(new long[] {5, 5}, Apportion.split(10, new double[] {0, 0}));
    assertArrayEquals(new long[] {4, 3, 3}, Apportion.split(10, new double[] {0, 0, 0}));
    long[] parts = Apportion.split(1_000_001, new double[] {0, 0, 0, 0});
    assertEquals(1_000_001, parts[0] + parts[1] + parts[2] + parts[3]);
    for (long p : parts) {
      assertTrue(p == 250_000 || p == 250_001, "unequal part " + p);
    }
  }

  @Test
  void split_emptyOrZeroTotal_nothingToSplit() {
    assertEquals(0, Apportion.split(123, new double[0]).length);
    assertArrayEquals(new long[] {0, 0}, Apportion.split(0, new double[] {1, 2}));
  }

  @Test
  void split_negativeNanOrInfiniteWeights_rejected() {
    assertThrows(IllegalArgumentException.class, () -> Apportion.split(10, new double[] {1, -1}));
    assertThrows(IllegalArgumentException.class,
        () -> Apportion.split(10, new double[] {1, Double.NaN}));
    assertThrows(IllegalArgumentException.class,
        () -> Apportion.split(10, new double[] {Double.POSITIVE_INFINITY, 1}));
    assertThrows(IllegalArgumentException.class,
        () -> Apportion.split(10, new double[] {-0.5}));
  }

  @Test
  void split_badWeightsWithNothingToSplit_stillRejected() {
    // A NaN weight is a bug upstream; whether it is caught must not depend on the interval's energy.
    assertThrows(IllegalArgumentException.class,
        () -> Apportion.split(0, new double[] {1, Double.NaN}));
    assertThrows(IllegalArgumentException.class, () -> Apportion.split(0, new double[] {-1}));
  }

  @Test
  void split_weightsSumOverflows_stillProportional() {
    double big = Double.MAX_VALUE / 2;
    long[] parts = Apportion.split(10, new double[] {big, big, big});
    assertArrayEquals(new long[] {4, 3, 3}, parts);
    assertExactAndProportional(1_000_000, new double[] {big, big / 4},
        Apportion.split(1_000_000, new double[] {big, big / 4}));
  }

  @Test
  void split_totalBeyondDoublePrecision_addsUpExactly() {
    Random random = new Random(7);
    for (int round = 0; round < 2_000; round++) {
      long total = (1L << 53) + (random.nextLong() >>> 2);
      int n = 1 + random.nextInt(6);
      double[] weights = new double[n];
      for (int i = 0; i < n; i++) {
        weights[i] = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 100;
      }
      long[] parts = Apportion.split(total, weights);
      long sum = 0;
      for (long p : parts) {
        assertTrue(p >= 0);
        sum += p;
      }
      assertEquals(total, sum, "total " + total);
    }
  }
}
