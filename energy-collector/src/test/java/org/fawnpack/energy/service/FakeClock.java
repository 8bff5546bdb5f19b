package org.fawnpack.energy.service;

/** An {@link EnergyClock} the test moves by hand. */
final class FakeClock implements EnergyClock {
  private long nanos;
  private long millis;

  FakeClock(long startNanos, long startMillis) {
    this.nanos = startNanos;
    this.millis = startMillis;
  }

  synchronized void advanceMillis(long ms) {
    nanos += ms * 1_000_000L;
    millis += ms;
  }

  @Override
  public synchronized long nanoTime() {
    return nanos;
  }

  @Override
  public synchronized long currentTimeMillis() {
    return millis;
  }
}
