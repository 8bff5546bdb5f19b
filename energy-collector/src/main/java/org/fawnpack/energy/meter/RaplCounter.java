package org.fawnpack.energy.meter;

/**
 * The energy counter of one RAPL zone, turned into increments. {@code energy_uj} counts up to
 * {@code max_energy_range_uj} and starts again at 0: a typical range of 262 kJ lasts 44 minutes
 * at 100 W, so wrapping is routine, not an error.
 */
final class RaplCounter {
  private final RaplZone zone;
  private final long range;
  private long previous;
  private boolean started;

  RaplCounter(RaplZone zone, long maxEnergyRangeUj) {
    this.zone = zone;
    this.range = maxEnergyRangeUj + 1;
  }

  RaplZone zone() {
    return zone;
  }

  /** Microjoules since the previous call; 0 the first time, which only sets the baseline. */
  long advance(long nowUj) {
    long delta = started ? increment(previous, nowUj, range) : 0;
    previous = nowUj;
    started = true;
    return delta;
  }

  /**
   * A counter below its previous value has wrapped once (at one read a second, twice would take
   * a draw of hundreds of kilowatts).
   */
  static long increment(long previousUj, long nowUj, long range) {
    return nowUj >= previousUj ? nowUj - previousUj : Math.floorMod(nowUj - previousUj, range);
  }
}
