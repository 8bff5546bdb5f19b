package org.fawnpack.kv.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link ChangeWait}: a command's wait wakes on a watched change — one made before the wait as
 * well as during it — and ends at its deadline; closing it closes every watch. The waits here
 * would last an hour if a change did not end them (the test's own bound is 30 s).
 */
class ChangeWaitTest {
  private static final Duration BOUND = Duration.ofSeconds(30);

  @Test
  void aChange_duringOrBeforeTheWait_endsIt() throws Exception {
    AtomicReference<Runnable> fire = new AtomicReference<>();
    try (ChangeWait wait = new ChangeWait(3_600, 3_600_000)
        .watching(changed -> {
          fire.set(changed);
          return () -> { };
        })) {
      fire.get().run(); // before the wait: not lost
      assertTimeoutPreemptively(BOUND, () -> assertTrue(wait.awaitChange()));
      CompletableFuture<Boolean> woken = CompletableFuture.supplyAsync(() -> {
        try {
          return wait.awaitChange();
        } catch (java.io.InterruptedIOException e) {
          throw new IllegalStateException(e);
        }
      });
      fire.get().run(); // during it (or just before: a permit either way)
      assertTimeoutPreemptively(BOUND, () -> assertTrue(woken.get()));
    }
  }

  @Test
  void manyChanges_areOneLook() throws Exception {
    // A deadline 1 s away: the second wait has no change left to end it.
    AtomicReference<Runnable> fire = new AtomicReference<>();
    try (ChangeWait wait = new ChangeWait(1, 3_600_000).watching(changed -> {
      fire.set(changed);
      return () -> { };
    })) {
      for (int i = 0; i < 5; i++) {
        fire.get().run();
      }
      assertTrue(wait.awaitChange(), "woken by the changes");
      long began = System.nanoTime();
      assertTimeoutPreemptively(BOUND, () -> assertTrue(wait.awaitChange(), "a last look"));
      assertTrue(System.nanoTime() - began >= 900_000_000L,
          "the other changes were drained: it waited out its deadline, not woken at once");
      assertFalse(wait.awaitChange(), "the time is up");
    }
  }

  @Test
  void aPassedDeadline_isFalse_andClosingClosesTheWatches() throws Exception {
    AtomicInteger closed = new AtomicInteger();
    ChangeWait wait = new ChangeWait(0, 3_600_000)
        .watching(changed -> closed::incrementAndGet)
        .watching(changed -> closed::incrementAndGet);
    assertFalse(wait.awaitChange());
    wait.close();
    assertEquals(2, closed.get());
  }
}
