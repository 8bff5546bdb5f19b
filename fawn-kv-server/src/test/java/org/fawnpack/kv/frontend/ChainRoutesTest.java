package org.fawnpack.kv.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request waiting to go again (a ring to catch up, a moving bucket) goes when what it waits
 * for happens, long before its pause would end; with nothing happening, when the pause ends;
 * once either way; and not at all, said so, when the front-end's timer is shut down.
 */
class ChainRoutesTest {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  @Test
  void goesWhenTheEventComes_notAfterTheWholePause() throws Exception {
    CompletableFuture<Void> event = new CompletableFuture<>();
    CountDownLatch ran = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    assertTrue(ChainRoutes.resumeWhen(event, 600_000, timer, () -> {
      runs.incrementAndGet();
      ran.countDown();
    }));
    assertFalse(ran.await(50, TimeUnit.MILLISECONDS), "nothing happened yet");
    event.complete(null);
    assertTrue(ran.await(10, TimeUnit.SECONDS), "went on the event, the pause being 10 min");
    timer.submit(() -> { }).get();
    assertEquals(1, runs.get());
  }

  @Test
  void goesAfterThePause_whenNothingHappens_once() throws Exception {
    CountDownLatch ran = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    CompletableFuture<Void> never = new CompletableFuture<>();
    assertTrue(ChainRoutes.resumeWhen(never, 5, timer, () -> {
      runs.incrementAndGet();
      ran.countDown();
    }));
    assertTrue(ran.await(10, TimeUnit.SECONDS));
    never.complete(null); // late: must not run it again
    timer.submit(() -> { }).get();
    timer.submit(() -> { }).get();
    assertEquals(1, runs.get());
  }

  @Test
  void timerShutDown_saysNothingWillRun() {
    timer.shutdown();
    assertFalse(ChainRoutes.resumeWhen(new CompletableFuture<>(), 5, timer, () -> { }));
  }
}
