package org.fawnpack.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/** What a benchmark ran on, for the report. */
final class Machine {

  private Machine() {}

  /** Cores, memory, OS and JDK, e.g. {@code 2 cores, 24 GiB RAM, Linux 6.8 amd64, Java 17.0.15}. */
  static String describe() {
    return String.format(Locale.ROOT, "%d cores, %.0f GiB RAM, %s %s %s, Java %s",
        Runtime.getRuntime().availableProcessors(), totalMemoryGib(),
        System.getProperty("os.name"), System.getProperty("os.version"),
        System.getProperty("os.arch"), System.getProperty("java.version"));
  }

  static double totalMemoryGib() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getTotalMemorySize() / (1024.0 * 1024 * 1024);
    }
    return Double.NaN;
  }

  /** The 1-minute load average, NaN where the OS has none. */
  static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
