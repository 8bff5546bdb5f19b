package org.fawnpack.energy.service;

import java.io.IOException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.fawnpack.energy.meter.MeterException;
import org.fawnpack.energy.meter.MeterReading;
import org.fawnpack.energy.meter.PowerMeter;

/**
 * A test meter whose next answers the test queues: readings, failures, NaN/negative values, or a
 * read that blocks on a latch (a hung device). Counts every call of {@link #read()}.
 */
final class ScriptedMeter implements PowerMeter {
  /** One queued answer. */
  interface Step {
    MeterReading answer() throws IOException, InterruptedException;
  }

  private final String name;
  private final ConcurrentLinkedDeque<Step> steps = new ConcurrentLinkedDeque<>();
  private final AtomicInteger calls = new AtomicInteger();
  private volatile boolean closed;

  ScriptedMeter(String name) {
    this.name = name;
  }

  ScriptedMeter watts(double... values) {
    for (double v : values) {
      steps.add(() -> MeterReading.watts(v));
    }
    return this;
  }

  ScriptedMeter joules(double... counterValues) {
    for (double v : counterValues) {
      steps.add(() -> MeterReading.cumulativeJoules(v));
    }
    return this;
  }

  ScriptedMeter reading(MeterReading reading) {
    steps.add(() -> reading);
    return this;
  }

  ScriptedMeter fail(String causeKey) {
    steps.add(() -> {
      throw new MeterException(causeKey, "test failure " + causeKey);
    });
    return this;
  }

  ScriptedMeter failUnchecked() {
    steps.add(() -> {
      throw new IllegalStateException("test bug in the meter");
    });
    return this;
  }

  /** A read that blocks until {@code release} opens, then answers {@code watts}. */
  ScriptedMeter hang(CountDownLatch release, double watts) {
    steps.add(() -> {
      if (!release.await(30, TimeUnit.SECONDS)) {
        throw new MeterException("test-hang", "latch never released");
      }
      return MeterReading.watts(watts);
    });
    return this;
  }

  int calls() {
    return calls.get();
  }

  boolean closed() {
    return closed;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MeterReading read() throws IOException {
    calls.incrementAndGet();
    Step step = steps.poll();
    if (step == null) {
      throw new MeterException("test-script-empty", "no reading queued");
    }
    try {
      return step.answer();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MeterException("interrupted", "interrupted");
    }
  }

  @Override
  public void close() {
    closed = true;
  }
}
