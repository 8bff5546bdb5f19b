package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link CommittedHistory} against a naive model that keeps every sample: the answer for a
 * retention is the highest number sampled at least that long ago, whatever the order of
 * samples and questions.
 */
class CommittedHistoryTest {

  @Test
  void answersTheHighestNumberSampledAtLeastTheRetentionAgo() {
    Random random = new Random(20261127);
    for (int run = 0; run < 200; run++) {
      CommittedHistory history = new CommittedHistory();
      TreeMap<Long, Long> model = new TreeMap<>(); // time to the highest committed by then
      long now = 0;
      long committed = 0;
      long retention = random.nextInt(50);
      for (int step = 0; step < 300; step++) {
        now += random.nextInt(10);
        if (random.nextBoolean()) {
          committed += random.nextInt(3) - (random.nextInt(8) == 0 ? 5 : 0);
          history.sample(now, committed);
          long highest = Math.max(committed, model.isEmpty() ? 0 : model.lastEntry().getValue());
          model.put(now, Math.max(highest, model.getOrDefault(now, 0L)));
        }
        var oldEnough = model.floorEntry(now - retention);
        long expected = oldEnough == null ? 0 : Math.max(0, oldEnough.getValue());
        assertEquals(expected, history.committedBefore(now, retention),
            "run " + run + " step " + step + " at " + now + ", retention " + retention);
      }
    }
  }
}
