package org.fawnpack.energy.service;

import org.fawnpack.energy.meter.MeterReading;
import org.fawnpack.energy.meter.MeterSpec;
import org.fawnpack.energy.meter.PowerMeter;

/**
 * A third-party meter whose constructor rejects its settings with a plain unchecked exception
 * (not an EnergyConfigException), as many libraries do.
 */
public class ThrowingConstructorMeter implements PowerMeter {
  public ThrowingConstructorMeter(MeterSpec spec) {
    throw new IllegalStateException("cannot open device " + spec.get("device", "?"));
  }

  @Override
  public String name() {
    return "never";
  }

  @Override
  public MeterReading read() {
    throw new AssertionError("never constructed");
  }
}
