package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CodeTallyTest {

  private static Map<Integer, Long> contents(CodeTally tally) throws Exception {
    Map<Integer, Long> seen = new HashMap<>();
    tally.forEach((code, count) -> {
      Long previous = seen.put(code, count);
      assertEquals(null, previous, "code handed out twice: " + code);
    });
    return seen;
  }

  @Test
  void add_randomCodes_countsMatchHashMapOracle() throws Exception {
    Random random = new Random(64);
    int[] distinct = new int[5000]; // far past the initial 64 slots: many doublings
    for (int i = 0; i < distinct.length; i++) {
      distinct[i] = switch (i % 4) {
        case 0 -> 1 + random.nextInt(Integer.MAX_VALUE);
        case 1 -> 1 + random.nextInt(100);                 // small and dense
        case 2 -> (20160101 + random.nextInt(400)) * 8 + random.nextInt(6); // logcount2 codes
        default -> (1 + random.nextInt(1 << 15)) << 16;    // low bits all zero
      };
    }
    CodeTally tally = new CodeTally();
    Map<Integer, Long> oracle = new HashMap<>();
    for (int i = 0; i < 300_000; i++) {
      int code = distinct[random.nextInt(1 + random.nextInt(distinct.length))];
      tally.add(code);
      oracle.merge(code, 1L, Long::sum);
    }
    assertEquals(oracle, contents(tally));
    assertEquals(oracle.size(), tally.size());
  }

  @Test
  void add_growthBoundary_noCodeLostOrDuplicated() throws Exception {
    CodeTally tally = new CodeTally();
    Map<Integer, Long> oracle = new HashMap<>();
    for (int n = 1; n <= 1000; n++) {
      tally.add(n * 8 + 2);
      tally.add(n * 8 + 2);
      oracle.put(n * 8 + 2, 2L);
      assertEquals(n, tally.size());
      if (Integer.bitCount(n) <= 2) { // around every power of two, where the table grows
        assertEquals(oracle, contents(tally), "after " + n + " codes");
      }
    }
    assertEquals(oracle, contents(tally));
  }

  @Test
  void add_maxIntAndOne_counted() throws Exception {
    CodeTally tally = new CodeTally();
    tally.add(Integer.MAX_VALUE);
    tally.add(1);
    tally.add(Integer.MAX_VALUE);
    assertEquals(Map.of(Integer.MAX_VALUE, 2L, 1, 1L), contents(tally));
  }

  @Test
  void forEach_empty_handsOutNothing() throws Exception {
    CodeTally tally = new CodeTally();
    assertEquals(Map.of(), contents(tally));
    assertEquals(0, tally.size());
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, -16081, Integer.MIN_VALUE})
  void add_nonPositiveCode_rejectedNamingIt(int code) throws Exception {
    CodeTally tally = new CodeTally();
    tally.add(5);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> tally.add(code));
    assertTrue(e.getMessage().contains(Integer.toString(code)), e.getMessage());
    assertEquals(Map.of(5, 1L), contents(tally), "a rejected code must leave the tally alone");
  }
}
