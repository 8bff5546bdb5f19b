package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.WriteId;
import org.junit.jupiter.api.Test;

/**
 * A sent list's {@code committedThrough} completes exactly when, at some moment since it was
 * asked, no write up to its number was unconfirmed: checked after every step of random
 * histories (forwards, confirmations in any order, a member becoming tail) against a model
 * that keeps the unconfirmed numbers in a plain set.
 */
class SentListTest {

  private record Wait(long sequence, CompletableFuture<Void> future, boolean[] satisfied) {}

  @Test
  void committedThrough_completesWhenNoWriteUpToItIsUnconfirmed_randomHistories() {
    Random random = new Random(11);
    for (int round = 0; round < 300; round++) {
      SentList list = new SentList();
      TreeSet<Long> model = new TreeSet<>();
      List<Wait> waits = new ArrayList<>();
      long next = 1;
      for (int step = 0; step < 200; step++) {
        int op = random.nextInt(100);
        if (op < 45) {
          list.add(new SentList.SentWrite(MessageType.CHAIN_PUT, new byte[] {1}, new byte[] {2},
              next, WriteId.NONE));
          model.add(next++);
        } else if (op < 80 && !model.isEmpty()) {
          long s = pick(model, random);
          list.confirmed(s);
          model.remove(s);
        } else if (op < 82) {
          list.clear();
          model.clear();
        } else {
          long s = 1 + random.nextInt((int) next + 2);
          waits.add(new Wait(s, list.committedThrough(s), new boolean[1]));
        }
        for (Wait w : waits) {
          w.satisfied()[0] |= model.isEmpty() || model.first() > w.sequence();
          assertEquals(w.satisfied()[0], w.future().isDone(), "round " + round + " step " + step
              + ": waiting through " + w.sequence() + ", unconfirmed " + model);
        }
      }
    }
  }

  private static long pick(TreeSet<Long> set, Random random) {
    int i = random.nextInt(set.size());
    for (long s : set) {
      if (i-- == 0) {
        return s;
      }
    }
    throw new AssertionError();
  }
}
