package org.fawnpack.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SplitSizerTest {

  /** ceil(total / vcores) clamped to [min, max], in exact arithmetic. */
  private static long oracle(long total, int vcores, long min, long max) {
    BigInteger[] qr = BigInteger.valueOf(total).divideAndRemainder(BigInteger.valueOf(vcores));
    BigInteger ceil = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
    BigInteger clamped = ceil.max(BigInteger.valueOf(min)).min(BigInteger.valueOf(max));
    return clamped.longValueExact();
  }

  @ParameterizedTest(name = "total={0} vcores={1} -> {2}")
  @CsvSource({
    "100, 4, 25",   // exact division
    "101, 4, 26",   // remainder rounds up
    "103, 4, 26",
    "1, 4, 1",
    "0, 4, 1",      // nothing to read: the floor
    "7, 1, 7",
    "9223372036854775807, 1, 9223372036854775807",
    "9223372036854775807, 2, 4611686018427387904"
  })
  void onePerVcore_withinBounds_isCeilingOfTotalOverVcores(long total, int vcores, long expected) {
    assertEquals(expected, SplitSizer.onePerVcore(total, vcores, 1, Long.MAX_VALUE));
  }

  @Test
  void onePerVcore_smallInput_isRaisedToTheFloor() {
    assertEquals(4096, SplitSizer.onePerVcore(1000, 4, 4096, 1 << 20));
  }

  @Test
  void onePerVcore_hugeInput_isCappedAtTheMax() {
    assertEquals(1 << 20, SplitSizer.onePerVcore(1L << 40, 4, 4096, 1 << 20));
  }

  @Test
  void onePerVcore_minEqualsMax_isThatSize() {
    assertEquals(5000, SplitSizer.onePerVcore(123_456, 3, 5000, 5000));
  }

  @Test
  void onePerVcore_randomArguments_matchesExactArithmetic() {
    Random random = new Random(0xF4A7L);
    for (int i = 0; i < 20_000; i++) {
      long total = random.nextInt(4) == 0 ? random.nextLong() & Long.MAX_VALUE
          : random.nextInt(1 << 30);
      int vcores = 1 + random.nextInt(random.nextBoolean() ? 8 : 100_000);
      long min = 1 + random.nextInt(1 << 20);
      long max = min + (random.nextBoolean() ? random.nextInt(1 << 24) : random.nextLong() >>> 2);
      long size = SplitSizer.onePerVcore(total, vcores, min, max);
      assertEquals(oracle(total, vcores, min, max), size,
          () -> "total=" + total + " vcores=" + vcores + " min=" + min + " max=" + max);
      // The property the sizing exists for: unless capped, at most one split per vcore.
      if (size < max) {
        assertTrue(BigInteger.valueOf(size).multiply(BigInteger.valueOf(vcores))
            .compareTo(BigInteger.valueOf(total)) >= 0);
      }
    }
  }

  @Test
  void onePerVcore_negativeTotal_rejectedNamingTheValue() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SplitSizer.onePerVcore(-17, 4, 1, 10));
    assertTrue(e.getMessage().contains("-17"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"0", "-3"})
  void onePerVcore_vcoresBelowOne_rejectedNamingTheValue(int vcores) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SplitSizer.onePerVcore(100, vcores, 1, 10));
    assertTrue(e.getMessage().contains(Integer.toString(vcores)), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"0, 10", "-5, 10", "11, 10"})
  void onePerVcore_badBounds_rejectedNamingTheValues(long min, long max) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> SplitSizer.onePerVcore(100, 4, min, max));
    assertTrue(e.getMessage().contains(Long.toString(min)), e.getMessage());
    assertTrue(e.getMessage().contains(Long.toString(max)), e.getMessage());
  }
}
