package org.fawnpack.energy.service;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.fawnpack.energy.meter.MeterException;
import org.fawnpack.energy.meter.MeterReading;
import org.fawnpack.energy.meter.PowerMeter;

/**
 * One meter as the sampler drives it: reads on the meter's own thread so a hung device cannot
 * stall the others, applies the host's share, rejects implausible values, and turns readings into
 * joules per interval. Power readings are integrated by the trapezoid rule; a gap holds the last
 * good power for the interval (and is counted). Energy counters are differenced; after a gap the
 * next good reading brings the missed energy in with it.
 */
final class MeterChannel implements Closeable {
  private final PowerMeter meter;
  private final HostShare share;
  private final double maxWatts;
  private final ExecutorService reader;
  private final GapLog gapLog;
  private Future<MeterReading> pending;
  private double lastWatts = Double.NaN;
  private double lastCounterJoules = Double.NaN;
  /** Seconds since the last counter reading was taken (more than one interval after gaps). */
  private double counterSeconds;

  MeterChannel(PowerMeter meter, double share, double maxWatts) {
    this(meter, new HostShare.Fixed(share), maxWatts);
  }

  MeterChannel(PowerMeter meter, HostShare share, double maxWatts) {
    this.meter = meter;
    this.share = share;
    this.maxWatts = maxWatts;
    this.gapLog = new GapLog(meter.name());
    this.reader = Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "fawn-energy-meter-" + meter.name());
      thread.setDaemon(true);
      return thread;
    });
  }

  String name() {
    return meter.name();
  }

  long gaps() {
    return gapLog.total();
  }

  /**
   * Starts a read. If the previous read is still blocked (a hung meter), nothing new is queued
   * behind it: this interval will be a gap.
   */
  void begin() {
    if (pending != null && !pending.isDone()) {
      return;
    }
    pending = reader.submit(meter::read);
  }

  /** Waits for the read started by {@link #begin()} until {@code deadlineNanos}. */
  ChannelSample complete(double intervalSeconds, long deadlineNanos) {
    counterSeconds += intervalSeconds;
    MeterReading reading;
    try {
      long wait = Math.max(0, deadlineNanos - System.nanoTime());
      reading = pending.get(wait, TimeUnit.NANOSECONDS);
      pending = null;
    } catch (TimeoutException e) {
      return gap(intervalSeconds, "timeout", "no answer within the meter timeout");
    } catch (ExecutionException e) {
      pending = null;
      Throwable cause = e.getCause();
      String key = cause instanceof MeterException m ? m.causeKey() : cause.getClass().getSimpleName();
      return gap(intervalSeconds, key, String.valueOf(cause.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return gap(intervalSeconds, "interrupted", "sampler interrupted");
    }
    if (reading == null || !Double.isFinite(reading.value()) || reading.value() < 0) {
      return gap(intervalSeconds, "bad-value", "returned " + reading);
    }
    return switch (reading.kind()) {
      case POWER_WATTS -> power(reading, intervalSeconds);
      case CUMULATIVE_JOULES -> counter(reading, intervalSeconds);
    };
  }

  private ChannelSample power(MeterReading reading, double intervalSeconds) {
    double watts = share.ofWatts(reading.value());
    if (watts > maxWatts) {
      return gap(intervalSeconds, "implausible", watts + " W is above the max-watts limit " + maxWatts);
    }
    boolean noBaseline = Double.isNaN(lastWatts);
    double joules = noBaseline ? watts * intervalSeconds : (lastWatts + watts) / 2 * intervalSeconds;
    lastWatts = watts;
    gapLog.good();
    // Without a power at the interval's start (every earlier read failed) the interval is a gap,
    // held at this reading; only the sampler's very first, 0-second step is a clean baseline.
    return new ChannelSample(joules, watts, noBaseline && intervalSeconds > 0, reading.estimated());
  }

  private ChannelSample counter(MeterReading reading, double intervalSeconds) {
    double total = reading.value(); // the whole meter's: this host's part is taken per interval
    double previous = lastCounterJoules;
    double seconds = counterSeconds; // this interval, plus any missed ones since the last reading
    lastCounterJoules = total;
    counterSeconds = 0;
    if (Double.isNaN(previous)) {
      gapLog.good();
      // A baseline taken after missed reads: the energy before it is unknown, so flag it.
      return new ChannelSample(0, Double.NaN, seconds > 0, reading.estimated());
    }
    double meterJoules = total - previous;
    if (meterJoules < 0) {
      return gap(intervalSeconds, "counter-reset", "energy counter went back by "
          + (-meterJoules) + " J");
    }
    // Split as the interval's mean power: a load share's idle part is per second.
    double joules = seconds > 0 ? share.ofWatts(meterJoules / seconds) * seconds : 0;
    double watts = seconds > 0 ? joules / seconds : Double.NaN;
    if (watts > maxWatts) {
      return gap(intervalSeconds, "implausible", joules + " J in " + seconds
          + " s is above the max-watts limit " + maxWatts);
    }
    lastWatts = watts;
    gapLog.good();
    return new ChannelSample(joules, watts, false, reading.estimated());
  }

  private ChannelSample gap(double intervalSeconds, String cause, String detail) {
    gapLog.gap(cause, detail);
    // Power meters hold the last good value across the gap; counters catch up on the next read.
    boolean holds = !Double.isNaN(lastWatts) && Double.isNaN(lastCounterJoules);
    double joules = holds ? lastWatts * intervalSeconds : 0;
    return new ChannelSample(joules, holds ? lastWatts : Double.NaN, true, false);
  }

  @Override
  public void close() throws IOException {
    reader.shutdownNow();
    meter.close();
  }
}
