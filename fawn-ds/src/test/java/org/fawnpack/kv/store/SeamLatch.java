package org.fawnpack.kv.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Test seams that order two threads: a thread reaching a seam marks it reached, and a thread
 * reaching a seam set to wait holds there until another seam has been reached, or until a
 * bound passes (on fixed code the other thread may be locked out until then: the bound turns
 * that wait into a short delay instead of a deadlock). Each seam acts once.
 */
final class SeamLatch implements TestSeams {

  private final Map<Seam, CountDownLatch> reached = new EnumMap<>(Seam.class);
  private final Map<Seam, Seam> waits = new EnumMap<>(Seam.class);
  private final long boundMillis;

  SeamLatch(long boundMillis) {
    this.boundMillis = boundMillis;
    for (Seam seam : Seam.values()) {
      reached.put(seam, new CountDownLatch(1));
    }
  }

  /** A thread at {@code seam} waits (bounded) until some thread has reached {@code until}. */
  SeamLatch holdAt(Seam seam, Seam until) {
    waits.put(seam, until);
    return this;
  }

  @Override
  public void reached(Seam seam) {
    CountDownLatch latch = reached.get(seam);
    if (latch.getCount() == 0) {
      return;
    }
    latch.countDown();
    Seam until = waits.get(seam);
    if (until != null) {
      awaitQuietly(until, boundMillis);
    }
  }

  /** Waits up to {@code millis} for {@code seam}; whether it was reached. */
  boolean awaitQuietly(Seam seam, long millis) {
    try {
      return reached.get(seam).await(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
