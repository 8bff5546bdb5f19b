package org.fawnpack.energy.meter;

/**
 * What a meter returned: either the power right now, or the value of a cumulative energy counter
 * (RAPL), which the sampler differences. {@code estimated} marks readings that come from a model
 * or a load percentage rather than a measurement of watts.
 */
public record MeterReading(Kind kind, double value, boolean estimated) {

  /** How {@link #value()} is to be read. */
  public enum Kind {
    /** Instantaneous (or short-average) power in watts; integrated by the trapezoid rule. */
    POWER_WATTS,
    /** A cumulative energy counter in joules, monotonic (wrap-around already removed). */
    CUMULATIVE_JOULES
  }

  public static MeterReading watts(double watts) {
    return new MeterReading(Kind.POWER_WATTS, watts, false);
  }

  public static MeterReading estimatedWatts(double watts) {
    return new MeterReading(Kind.POWER_WATTS, watts, true);
  }

  public static MeterReading cumulativeJoules(double joules) {
    return new MeterReading(Kind.CUMULATIVE_JOULES, joules, false);
  }
}
