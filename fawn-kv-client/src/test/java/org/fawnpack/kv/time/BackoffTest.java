package org.fawnpack.kv.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Backoff against a naive model: a pause doubled with big numbers, then capped. */
class BackoffTest {

  private static long model(long first, long max, int tries) {
    java.math.BigInteger pause = java.math.BigInteger.valueOf(first)
        .shiftLeft(tries - 1);
    return pause.min(java.math.BigInteger.valueOf(max)).longValueExact();
  }

  @Test
  void pausesDoubleFromTheFirst_andStopAtTheLargest() {
    Random random = new Random(42);
    for (int i = 0; i < 500; i++) {
      long first = 1 + random.nextInt(1_000);
      long max = first + (random.nextBoolean() ? random.nextInt(100_000)
          : random.nextLong(Long.MAX_VALUE - first));
      Backoff backoff = new Backoff(first, max);
      long carried = first;
      for (int tries = 1; tries <= 80; tries++) {
        long expected = model(first, max, tries);
        assertEquals(expected, backoff.pauseAfter(tries), backoff + " after " + tries);
        assertEquals(expected, carried, backoff + " carried to " + tries);
        carried = backoff.next(carried);
      }
    }
  }

  @Test
  void theClientsPausesAreThoseItAlwaysMade() {
    long[] expected = {50, 100, 200, 400, 800};
    for (int tries = 1; tries <= expected.length; tries++) {
      assertEquals(expected[tries - 1], Backoff.CLIENT_REQUEST.pauseAfter(tries));
    }
  }

  @Test
  void nonsenseIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Backoff(0, 10));
    assertThrows(IllegalArgumentException.class, () -> new Backoff(20, 10));
    assertThrows(IllegalArgumentException.class, () -> Backoff.CLUSTER_STEP.pauseAfter(0));
  }
}
