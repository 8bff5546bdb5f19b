package org.fawnpack.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ByteSizesTest {

  @Test
  void parse_plainAndSuffixed_binaryMultiples() {
    assertEquals(4194304L, ByteSizes.parse("4194304"));
    assertEquals(4L * 1024 * 1024, ByteSizes.parse("4m"));
    assertEquals(256L * 1024, ByteSizes.parse("256K"));
    assertEquals(3L << 30, ByteSizes.parse("3g"));
    assertEquals(1L << 40, ByteSizes.parse("1t"));
    assertEquals(-2048L, ByteSizes.parse("-2k"));
  }

  @Test
  void parse_unknownSuffixOverflowOrNoNumber_refused() {
    assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("64mb"));
    assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("9e"));
    assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("lots"));
    assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse("m"));
    assertThrows(IllegalArgumentException.class, () -> ByteSizes.parse(""));
  }

  @Test
  void spell_shortestExactForm_readsBackToTheSameBytes() {
    assertEquals("256m", ByteSizes.spell(268435456L));
    assertEquals("1000", ByteSizes.spell(1000));
    assertEquals("1536k", ByteSizes.spell(1536L * 1024));
    assertEquals("0", ByteSizes.spell(0));
    for (long bytes : new long[] {1, 1023, 1024, 4L << 20, 5L << 30, (1L << 40) + 1024}) {
      assertEquals(bytes, ByteSizes.parse(ByteSizes.spell(bytes)));
    }
  }
}
