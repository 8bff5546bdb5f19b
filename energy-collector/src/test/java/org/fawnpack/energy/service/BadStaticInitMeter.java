package org.fawnpack.energy.service;

import org.fawnpack.energy.meter.MeterReading;
import org.fawnpack.energy.meter.MeterSpec;
import org.fawnpack.energy.meter.PowerMeter;

/** A meter class that cannot even be initialised (a native library or a dependency missing). */
public class BadStaticInitMeter implements PowerMeter {
  static {
    if (Boolean.parseBoolean("true")) {
      throw new IllegalStateException("native library fawnmeter not found");
    }
  }

  public BadStaticInitMeter(MeterSpec spec) {
  }

  @Override
  public String name() {
    return "never";
  }

  @Override
  public MeterReading read() {
    throw new AssertionError("never initialised");
  }
}
