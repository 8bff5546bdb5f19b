package org.fawnpack.kv.time;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * A wait on a growing number completes exactly when the highest number reached so far is at
 * least its value (kept by the test as a plain maximum), and with that number.
 */
class EpochWaitsTest {

  private record Wait(long value, CompletableFuture<Long> future) {}

  @Test
  void completesExactlyOnceTheNumberReachesIt_randomHistories() {
    Random random = new Random(3);
    for (int round = 0; round < 300; round++) {
      EpochWaits waits = new EpochWaits();
      long highest = Long.MIN_VALUE;
      List<Wait> asked = new ArrayList<>();
      for (int step = 0; step < 100; step++) {
        if (random.nextBoolean()) {
          long v = random.nextInt(60);
          asked.add(new Wait(v, waits.atLeast(v)));
        } else {
          long v = random.nextInt(60); // sometimes lower than before: ignored
          waits.reached(v);
          highest = Math.max(highest, v);
        }
        for (Wait w : asked) {
          assertEquals(highest >= w.value(), w.future().isDone(),
              "round " + round + " step " + step + ": waiting for " + w.value());
        }
      }
      int open = 0;
      for (Wait w : asked) {
        open += w.future().isDone() ? 0 : 1;
      }
      assertEquals(open, waits.waiting(), "round " + round + ": the open waits are kept");
    }
  }

  @Test
  void completesWithTheNumberReached() throws Exception {
    EpochWaits waits = new EpochWaits();
    CompletableFuture<Long> five = waits.atLeast(5);
    waits.reached(7);
    assertEquals(7L, five.get());
    assertEquals(7L, waits.atLeast(6).get(), "already reached: at once, with the number");
  }
}
