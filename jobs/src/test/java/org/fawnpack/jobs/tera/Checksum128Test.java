package org.fawnpack.jobs.tera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The 128-bit CRC sum against BigInteger. */
class Checksum128Test {

  @Test
  void add_randomValues_sumAndHexMatchBigInteger() {
    Random random = new Random(7);
    Checksum128 sum = new Checksum128();
    BigInteger expected = BigInteger.ZERO;
    for (int i = 0; i < 10_000; i++) {
      long value = random.nextLong();
      sum.add(value);
      expected = expected.add(new BigInteger(Long.toUnsignedString(value)));
    }
    assertEquals(expected.toString(16), sum.toString());
    assertEquals(sum, Checksum128.parse(sum.toString()));
  }

  @Test
  void parse_rejectsNonHex() {
    assertThrows(NumberFormatException.class, () -> Checksum128.parse("12g"));
    assertThrows(NumberFormatException.class, () -> Checksum128.parse(""));
    assertThrows(NumberFormatException.class, () -> Checksum128.parse("1".repeat(33)));
  }
}
