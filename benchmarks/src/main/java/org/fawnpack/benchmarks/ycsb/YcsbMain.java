package org.fawnpack.benchmarks.ycsb;

import java.lang.management.ManagementFactory;

/**
 * YCSB's own client, run as it is, that also prints the CPU time its JVM used when it exits
 * ({@link #CPU_LINE} and nanoseconds), so a benchmark can say what each operation cost the
 * client. YCSB's main ends with {@code System.exit}, hence the shutdown hook.
 */
public final class YcsbMain {
  /** The line's start, followed by the JVM's CPU nanoseconds. */
  public static final String CPU_LINE = "fawn-ycsb-client-cpu-ns ";

  private YcsbMain() {}

  public static void main(String[] args) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (ManagementFactory.getOperatingSystemMXBean()
          instanceof com.sun.management.OperatingSystemMXBean os) {
        System.out.println(CPU_LINE + os.getProcessCpuTime());
      }
    }));
    site.ycsb.Client.main(args);
  }
}
