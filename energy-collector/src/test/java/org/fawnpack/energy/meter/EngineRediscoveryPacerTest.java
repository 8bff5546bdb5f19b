package org.fawnpack.energy.meter;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The pacing rule on a clock the test steps; the interval is spelled out here, not borrowed. */
class EngineRediscoveryPacerTest {
  private static final long THIRTY_SECONDS = TimeUnit.SECONDS.toNanos(30);

  private final AtomicLong now = new AtomicLong(-5_000_000_000L);
  private final EngineRediscoveryPacer pacer = new EngineRediscoveryPacer(now::get);

  @Test
  void mayRediscover_firstTimeoutAlways() {
    assertTrue(pacer.mayRediscover());
  }

  @Test
  void mayRediscover_notAgainWithinThirtySeconds() {
    assertTrue(pacer.mayRediscover());
    for (int timeout = 0; timeout < 29; timeout++) {
      now.addAndGet(TimeUnit.SECONDS.toNanos(1));
      assertFalse(pacer.mayRediscover(), "timeout " + timeout);
    }
  }

  @Test
  void mayRediscover_againOnceThirtySecondsHavePassed() {
    assertTrue(pacer.mayRediscover());
    now.addAndGet(THIRTY_SECONDS - 1);
    assertFalse(pacer.mayRediscover());
    now.addAndGet(1);
    assertTrue(pacer.mayRediscover());
    assertFalse(pacer.mayRediscover());
  }

  @Test
  void mayRediscover_refusalsDoNotPushTheNextOneBack() {
    assertTrue(pacer.mayRediscover());
    now.addAndGet(THIRTY_SECONDS / 2);
    assertFalse(pacer.mayRediscover());
    now.addAndGet(THIRTY_SECONDS / 2);
    assertTrue(pacer.mayRediscover());
  }
}
