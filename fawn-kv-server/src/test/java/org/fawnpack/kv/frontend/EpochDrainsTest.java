package org.fawnpack.kv.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A front-end's drain of a new slice epoch ends when the last request taken under an older
 * epoch is answered, not before (checked against the set of older requests still unanswered,
 * kept by the test), once, and only for the epoch the front-end still serves by; the limit
 * fails the stragglers and ends it anyway.
 */
class EpochDrainsTest {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final AtomicLong servedEpoch = new AtomicLong();
  private final BlockingQueue<Long> drained = new LinkedBlockingQueue<>();

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  /** A request on its way, as a front-end's admission behaves. */
  private final class Request implements EpochDrains.OnItsWay {
    final long epoch;
    final AtomicBoolean answered = new AtomicBoolean();
    volatile boolean failed;

    Request(long epoch) {
      this.epoch = epoch;
    }

    @Override
    public long epoch() {
      return epoch;
    }

    @Override
    public boolean isAnswered() {
      return answered.get();
    }

    @Override
    public void failAfterDrainLimit(long limitMs) {
      if (answered.compareAndSet(false, true)) {
        failed = true;
      }
    }
  }

  /** Answers {@code r} as an admission does: marked, out of the set, then reported. */
  private static void answer(EpochDrains drains, Set<Request> onItsWay, Request r) {
    if (r.answered.compareAndSet(false, true)) {
      onItsWay.remove(r);
      drains.answered(r);
    }
  }

  private EpochDrains drains(long limitMs) {
    return new EpochDrains("f1", timer, servedEpoch::get, drained::add, limitMs);
  }

  @Test
  void endsWhenTheLastOlderRequestIsAnswered_notBefore_randomOrders() throws Exception {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      EpochDrains drains = drains(60_000);
      Set<Request> onItsWay = ConcurrentHashMap.newKeySet();
      long epoch = 5;
      List<Request> all = new ArrayList<>();
      for (int i = random.nextInt(8); i > 0; i--) {
        all.add(new Request(epoch - 1 - random.nextInt(3))); // older
      }
      for (int i = random.nextInt(4); i > 0; i--) {
        all.add(new Request(epoch)); // taken under the new epoch: not waited for
      }
      onItsWay.addAll(all);
      servedEpoch.set(epoch);
      drains.start(epoch, onItsWay);
      Collections.shuffle(all, random);
      for (int answered = 0; ; answered++) {
        timer.submit(() -> { }).get(); // what the answers scheduled on the timer has run
        boolean olderLeft = onItsWay.stream().anyMatch(x -> x.epoch < epoch);
        assertEquals(olderLeft ? null : (Long) epoch, drained.poll(), "round " + round
            + ": drained exactly when no older request is on its way");
        if (!olderLeft) {
          break;
        }
        answer(drains, onItsWay, all.get(answered));
      }
      all.forEach(r -> answer(drains, onItsWay, r));
      timer.submit(() -> { }).get();
      assertEquals(null, drained.poll(), "round " + round + ": once only");
    }
  }

  @Test
  void answersRacingTheStart_stillEndIt() throws Exception {
    for (int round = 0; round < 200; round++) {
      EpochDrains drains = drains(60_000);
      Set<Request> onItsWay = ConcurrentHashMap.newKeySet();
      List<Request> older = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        older.add(new Request(1));
      }
      onItsWay.addAll(older);
      servedEpoch.set(2);
      Thread answering = new Thread(() -> older.forEach(r -> answer(drains, onItsWay, r)));
      answering.start();
      drains.start(2, onItsWay);
      answering.join();
      assertEquals(2L, drained.poll(10, TimeUnit.SECONDS), "round " + round);
    }
  }

  @Test
  void aNewerEpoch_takesOver_theOlderDrainReportsNothing() throws Exception {
    EpochDrains drains = drains(60_000);
    Set<Request> onItsWay = ConcurrentHashMap.newKeySet();
    Request underOne = new Request(1);
    Request underTwo = new Request(2);
    onItsWay.add(underOne);
    servedEpoch.set(2);
    drains.start(2, onItsWay);
    onItsWay.add(underTwo);
    servedEpoch.set(3);
    drains.start(3, onItsWay);
    answer(drains, onItsWay, underOne);
    assertEquals(null, drained.poll(100, TimeUnit.MILLISECONDS), "epoch 3 waits for 2's");
    answer(drains, onItsWay, underTwo);
    assertEquals(3L, drained.poll(10, TimeUnit.SECONDS));
    assertEquals(null, drained.poll(100, TimeUnit.MILLISECONDS), "2 is never reported");
  }

  @Test
  void theLimit_failsTheStragglers_andEndsTheDrain() throws Exception {
    EpochDrains drains = drains(50);
    Set<Request> onItsWay = ConcurrentHashMap.newKeySet();
    Request straggler = new Request(1);
    Request answered = new Request(1);
    onItsWay.add(straggler);
    onItsWay.add(answered);
    servedEpoch.set(2);
    drains.start(2, onItsWay);
    answer(drains, onItsWay, answered);
    assertEquals(2L, drained.poll(10, TimeUnit.SECONDS));
    assertTrue(straggler.failed, "failed by the limit");
    assertFalse(answered.failed, "answered before it");
  }
}
