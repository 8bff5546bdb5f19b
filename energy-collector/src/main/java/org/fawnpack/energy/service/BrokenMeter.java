package org.fawnpack.energy.service;

import org.fawnpack.energy.meter.MeterException;
import org.fawnpack.energy.meter.MeterReading;
import org.fawnpack.energy.meter.PowerMeter;

/**
 * Stands in for a meter whose configuration is wrong, so the NodeManager still starts: every read
 * is a gap with cause "config", and the tasks' METER_GAPS show that something is missing.
 */
final class BrokenMeter implements PowerMeter {
  private final String name;
  private final String problem;

  BrokenMeter(String name, String problem) {
    this.name = name;
    this.problem = problem;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MeterReading read() throws MeterException {
    throw new MeterException("config", "not configured correctly: " + problem);
  }
}
