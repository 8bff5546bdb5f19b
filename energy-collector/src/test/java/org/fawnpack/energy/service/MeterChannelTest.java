package org.fawnpack.energy.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fawnpack.energy.meter.MeterReading;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MeterChannelTest {
  private static final double EPS = 1e-9;
  private MeterChannel channel;
  private final CountDownLatch release = new CountDownLatch(1);

  @AfterEach
  void closeChannel() throws Exception {
    release.countDown();
    if (channel != null) {
      channel.close();
    }
  }

  private MeterChannel channel(ScriptedMeter meter, double share, double maxWatts) {
    channel = new MeterChannel(meter, share, maxWatts);
    return channel;
  }

  /** One sampler step with a generous deadline. */
  private static ChannelSample step(MeterChannel channel, double seconds) {
    channel.begin();
    return channel.complete(seconds, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
  }

  private static ChannelSample step(MeterChannel channel, double seconds, long timeoutMillis) {
    channel.begin();
    return channel.complete(seconds, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
  }

  private static void assertGood(ChannelSample s, double joules, double watts) {
    assertFalse(s.gap(), "unexpected gap " + s);
    assertEquals(joules, s.joules(), EPS, "joules of " + s);
    assertEquals(watts, s.watts(), EPS, "watts of " + s);
  }

  private static void assertGap(ChannelSample s, double joules, double watts) {
    assertTrue(s.gap(), "expected a gap: " + s);
    assertEquals(joules, s.joules(), EPS, "joules of " + s);
    if (Double.isNaN(watts)) {
      assertTrue(Double.isNaN(s.watts()), "watts of " + s);
    } else {
      assertEquals(watts, s.watts(), EPS, "watts of " + s);
    }
  }

  @Test
  void sample_power_integratedByTrapezoidRule() {
    MeterChannel c = channel(new ScriptedMeter("m").watts(10, 20, 20, 5, 0), 1, 1000);
    assertGood(step(c, 0), 0, 10); // baseline
    assertGood(step(c, 1), 15, 20); // (10 + 20) / 2 * 1 s
    assertGood(step(c, 2), 40, 20); // (20 + 20) / 2 * 2 s
    assertGood(step(c, 0.5), 6.25, 5); // (20 + 5) / 2 * 0.5 s
    assertGood(step(c, 4), 10, 0); // (5 + 0) / 2 * 4 s; 0 W is a valid reading
    assertEquals(0, c.gaps());
  }

  @Test
  void sample_firstReading_baselineWithNoEnergy() {
    MeterChannel c = channel(new ScriptedMeter("m").watts(50, 50), 1, 1000);
    assertGood(step(c, 0), 0, 50);
    assertGood(step(c, 3), 150, 50);
  }

  @Test
  void sample_estimatedReadings_marked() {
    ScriptedMeter meter = new ScriptedMeter("model").reading(MeterReading.estimatedWatts(4))
        .reading(MeterReading.estimatedWatts(6)).watts(6);
    MeterChannel c = channel(meter, 1, 1000);
    assertTrue(step(c, 0).estimated());
    ChannelSample s = step(c, 1);
    assertTrue(s.estimated());
    assertEquals(5, s.joules(), EPS);
    assertFalse(step(c, 1).estimated());
  }

  @Test
  void sample_hostShare_applied() {
    MeterChannel c = channel(new ScriptedMeter("psu").watts(70, 140), 1.0 / 7, 1000);
    assertGood(step(c, 0), 0, 10);
    assertGood(step(c, 2), (10 + 20) / 2.0 * 2, 20);
  }

  @Test
  void sample_aboveMaxWattsOfHostShare_gap() {
    // A shared supply: 150 W at the meter is 75 W for this host, below the 100 W limit.
    MeterChannel c = channel(new ScriptedMeter("psu").watts(100, 150, 1000, 120), 0.5, 100);
    assertGood(step(c, 0), 0, 50);
    assertGood(step(c, 1), (50 + 75) / 2.0, 75);
    assertGap(step(c, 1), 75, 75); // 500 W > 100 W: held at 75 W for the interval
    assertGood(step(c, 1), (75 + 60) / 2.0, 60); // recovery: trapezoid from the held power
    assertEquals(1, c.gaps());
  }

  @Test
  void sample_failedReads_gapsHoldingLastPower() {
    ScriptedMeter meter = new ScriptedMeter("pdu").watts(8).fail("no-such-object")
        .fail("no-such-object").failUnchecked().watts(12);
    MeterChannel c = channel(meter, 1, 1000);
    assertGood(step(c, 0), 0, 8);
    assertGap(step(c, 1), 8, 8);
    assertGap(step(c, 2), 16, 8);
    assertGap(step(c, 0.5), 4, 8); // an unchecked exception from the meter is a gap too
    assertGood(step(c, 1), (8 + 12) / 2.0, 12);
    assertEquals(3, c.gaps());
  }

  @Test
  void sample_nanOrNegative_gap() {
    ScriptedMeter meter = new ScriptedMeter("m").watts(10, Double.NaN, -3,
        Double.POSITIVE_INFINITY).reading(null).watts(10);
    MeterChannel c = channel(meter, 1, 1000);
    assertGood(step(c, 0), 0, 10);
    assertGap(step(c, 1), 10, 10);
    assertGap(step(c, 1), 10, 10);
    assertGap(step(c, 1), 10, 10);
    assertGap(step(c, 1), 10, 10); // a meter returning null
    assertGood(step(c, 1), 10, 10);
    assertEquals(4, c.gaps());
  }

  @Test
  void sample_gapBeforeAnyGoodReading_noPowerToHold() {
    MeterChannel c = channel(new ScriptedMeter("m").fail("timeout"), 1, 1000);
    ChannelSample s = step(c, 1);
    assertGap(s, 0, Double.NaN);
  }

  @Test
  void sample_readingAfterGapsWithoutBaseline_notAGoodZero() {
    // The sampler's first tick (0 s) is every meter's baseline. If the meter fails then, the next
    // interval has no power to start the trapezoid from: it must be flagged, not booked as a
    // clean 0 J (the interval's energy is unknown, not zero).
    MeterChannel c = channel(new ScriptedMeter("snmp").fail("timeout").watts(10, 10), 1, 1000);
    assertGap(step(c, 0), 0, Double.NaN);
    ChannelSample next = step(c, 2);
    assertTrue(next.gap(), "interval without a starting power must be a gap: " + next);
    assertEquals(10, next.watts(), EPS);
    assertEquals(20, next.joules(), EPS, "held at the first known power, 10 W for 2 s");
    assertGood(step(c, 1), 10, 10);
    assertEquals(1, c.gaps(), "the failed read is counted once");
  }

  @Test
  void sample_counterBaselineAfterMissedReads_flagged() {
    MeterChannel c = channel(new ScriptedMeter("rapl").fail("timeout").joules(100, 110), 1, 1000);
    assertGap(step(c, 0), 0, Double.NaN);
    assertGap(step(c, 1), 0, Double.NaN); // energy before the first counter value is unknown
    assertGood(step(c, 1), 10, 10);
  }

  @Test
  void sample_hungMeter_gapAtDeadlineAndNoSecondReadQueued() throws Exception {
    ScriptedMeter meter = new ScriptedMeter("hang").watts(10).hang(release, 30).watts(30, 30, 30);
    MeterChannel c = channel(meter, 1, 1000);
    assertGood(step(c, 0), 0, 10);

    long t0 = System.nanoTime();
    assertGap(step(c, 1, 100), 10, 10); // held power for the interval
    long waited = System.nanoTime() - t0;
    assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(90), "returned before the deadline");
    assertTrue(waited < TimeUnit.SECONDS.toNanos(3), "waited far past the deadline: " + waited);
    assertEquals(2, meter.calls());

    assertGap(step(c, 1, 50), 10, 10);
    assertGap(step(c, 2, 50), 20, 10);
    assertEquals(2, meter.calls(), "a read was queued behind the hung one");
    assertEquals(3, c.gaps());

    release.countDown();
    // Recovery: either the released read or a fresh one answers 30 W; trapezoid from the held 10 W.
    assertGood(step(c, 1), 20, 30);
    assertGood(step(c, 1), 30, 30);
    assertTrue(meter.calls() == 3 || meter.calls() == 4, "calls " + meter.calls());
  }

  @Test
  void sample_cumulativeCounter_differenced() {
    MeterChannel c = channel(new ScriptedMeter("rapl").joules(1000, 1010, 1030, 1030), 1, 1000);
    assertGood(step(c, 0), 0, Double.NaN); // baseline: no power known yet
    assertGood(step(c, 1), 10, 10);
    assertGood(step(c, 2), 20, 10);
    assertGood(step(c, 1), 0, 0);
    assertEquals(0, c.gaps());
  }

  @Test
  void sample_counterWithHostShare_shareApplied() {
    MeterChannel c = channel(new ScriptedMeter("rapl").joules(400, 440), 0.25, 1000);
    step(c, 0);
    assertGood(step(c, 2), 10, 5);
  }

  @Test
  void sample_counterGoesBackwards_gapThenDeltaFromNewValue() {
    MeterChannel c = channel(new ScriptedMeter("rapl").joules(500, 510, 20, 35), 1, 1000);
    step(c, 0);
    assertGood(step(c, 1), 10, 10);
    assertGap(step(c, 1), 0, Double.NaN); // counters do not hold power: nothing is invented
    assertGood(step(c, 1), 15, 15);
    assertEquals(1, c.gaps());
  }

  @Test
  void sample_counterAfterFailedRead_catchesUp() {
    MeterChannel c = channel(new ScriptedMeter("rapl").joules(0, 10).fail("timeout")
        .joules(30, 40), 1, 1000);
    step(c, 0);
    assertGood(step(c, 1), 10, 10);
    assertGap(step(c, 1), 0, Double.NaN);
    ChannelSample catchUp = step(c, 1);
    assertFalse(catchUp.gap());
    assertEquals(20, catchUp.joules(), EPS, "the missed interval's energy comes in with the next read");
    assertEquals(10, catchUp.watts(), EPS, "20 J over the 2 s since the last good read");
    assertGood(step(c, 1), 10, 10);
  }

  @Test
  void sample_counterCatchUp_judgedAgainstMaxWattsSinceLastGoodRead() {
    // A steady 10 W node with a 15 W plausibility limit. Two missed reads: the next good read
    // brings 30 J, which is 10 W over the 3 s since the last good read, not 30 W in 1 s.
    MeterChannel c = channel(new ScriptedMeter("rapl").joules(0, 10).fail("timeout")
        .fail("timeout").joules(40, 50), 1, 15);
    step(c, 0);
    assertGood(step(c, 1), 10, 10);
    assertGap(step(c, 1), 0, Double.NaN);
    assertGap(step(c, 1), 0, Double.NaN);
    ChannelSample catchUp = step(c, 1);
    assertFalse(catchUp.gap(), "plausible catch-up rejected: " + catchUp);
    assertEquals(30, catchUp.joules(), EPS);
    assertEquals(10, catchUp.watts(), EPS);
    assertGood(step(c, 1), 10, 10);
  }

  @Test
  void sample_implausibleCounterJump_gap() {
    MeterChannel c = channel(new ScriptedMeter("rapl").joules(0, 10, 5010, 5020), 1, 100);
    step(c, 0);
    assertGood(step(c, 1), 10, 10);
    assertGap(step(c, 1), 0, Double.NaN); // 5000 J in 1 s
    assertGood(step(c, 1), 10, 10);
  }

  @Test
  void close_closesMeter() throws Exception {
    ScriptedMeter meter = new ScriptedMeter("m");
    MeterChannel c = new MeterChannel(meter, 1, 1000);
    c.close();
    assertTrue(meter.closed());
    assertEquals("m", c.name());
  }
}
