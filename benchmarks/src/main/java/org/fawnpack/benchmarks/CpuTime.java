package org.fawnpack.benchmarks;

import java.time.Duration;
import java.util.Collection;

/** CPU time processes have used, as the operating system counts it (user and system). */
final class CpuTime {
  private CpuTime() {}

  /** The CPU seconds {@code processes} have used so far (NaN when one cannot say). */
  static double seconds(Collection<ProcessHandle> processes) {
    double total = 0;
    for (ProcessHandle p : processes) {
      total += p.info().totalCpuDuration().map(Duration::toNanos).map(n -> n / 1e9)
          .orElse(Double.NaN);
    }
    return total;
  }
}
