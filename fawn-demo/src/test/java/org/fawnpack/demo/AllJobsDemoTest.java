package org.fawnpack.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The checks the --all demo applies to md5search's output, without a cluster. */
class AllJobsDemoTest {
  private static final String MD5_OF_123456 = "d747074027ce566f5dd8697337091787";

  @Test
  void md5Hex_value_isTheMd5OfItsFourBigEndianBytes() {
    assertEquals("f1d3ff8443297732862df21dc4e57262", AllJobsDemo.md5Hex(0));
    assertEquals(MD5_OF_123456, AllJobsDemo.md5Hex(123456));
    assertEquals("a54f0041a9e15b050f25c463f1db7449", AllJobsDemo.md5Hex(0xFFFF_FFFFL));
  }

  @Test
  void md5Problem_exactlyTheDrawnValue_isNone() {
    assertNull(AllJobsDemo.md5Problem(123456, MD5_OF_123456, 1 << 20, 1 << 20,
        List.of("123456\t0x0001e240\t" + MD5_OF_123456)));
  }

  @Test
  void md5Problem_nothingFound_saysNone() {
    assertEquals("expected the preimage 123456 of " + MD5_OF_123456 + ", found none",
        AllJobsDemo.md5Problem(123456, MD5_OF_123456, 1 << 20, 1 << 20, List.of()));
  }

  @Test
  void md5Problem_anotherValue_namesWhatWasFound() {
    assertEquals("expected the preimage 123456 of " + MD5_OF_123456 + ", found [7 0x00000007 "
        + MD5_OF_123456 + "]", AllJobsDemo.md5Problem(123456, MD5_OF_123456, 1 << 20, 1 << 20,
        List.of("7\t0x00000007\t" + MD5_OF_123456)));
  }

  @Test
  void md5Problem_valuesHashedTwice_isAProblemEvenWithTheRightPreimage() {
    assertEquals("computed 2,097,152 MD5s for 1,048,576 values",
        AllJobsDemo.md5Problem(123456, MD5_OF_123456, 1 << 20, 2 << 20,
            List.of("123456\t0x0001e240\t" + MD5_OF_123456)));
  }
}
