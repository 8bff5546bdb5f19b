package org.fawnpack.energy.cpu;

import java.io.IOException;

/** Busy fraction of a set of CPUs, for the {@code model} power meter. */
public interface CpuUtilisation {

  /**
   * The fraction of CPU time (0..1 over all CPUs) that was busy since the previous call; NaN on
   * the first call, when there is no previous reading to difference against.
   */
  double sinceLastCall() throws IOException;
}
