package org.fawnpack.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * CPU time of the threads whose name starts with a prefix, from
 * {@link ThreadMXBean#getThreadCpuTime}. Call {@link #poll()} often (every few hundred ms):
 * each poll picks up threads started since the last one and remembers every tracked thread's
 * latest CPU time, so a thread that ends between two polls loses at most one poll's worth.
 */
final class ThreadCpuTracker {

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final String prefix;
  private final Map<Long, String> names = new HashMap<>();
  private final Map<Long, Long> cpuNanos = new HashMap<>();

  ThreadCpuTracker(String prefix) {
    if (!threads.isThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM cannot measure thread CPU time");
    }
    if (!threads.isThreadCpuTimeEnabled()) {
      threads.setThreadCpuTimeEnabled(true);
    }
    this.prefix = prefix;
  }

  synchronized void poll() {
    for (long id : threads.getAllThreadIds()) {
      if (!names.containsKey(id)) {
        ThreadInfo info = threads.getThreadInfo(id);
        if (info != null && info.getThreadName().startsWith(prefix)) {
          names.put(id, info.getThreadName());
        }
      }
    }
    for (long id : names.keySet()) {
      long nanos = threads.getThreadCpuTime(id);
      if (nanos >= 0) {
        cpuNanos.put(id, nanos); // -1 once it has ended: keep its last reading
      }
    }
  }

  /** The CPU time of every thread seen so far, by thread id. */
  synchronized Snapshot snapshot() {
    poll();
    return new Snapshot(Map.copyOf(cpuNanos), Map.copyOf(names));
  }

  /** CPU nanoseconds per thread at one moment. */
  record Snapshot(Map<Long, Long> cpuNanos, Map<Long, String> names) {

    /** Before any thread ran. */
    static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of());

    /** CPU nanoseconds used since {@code earlier}, summed by {@code group} of thread name. */
    Map<String, Long> since(Snapshot earlier, Function<String, String> group) {
      Map<String, Long> sums = new TreeMap<>();
      cpuNanos.forEach((id, nanos) -> sums.merge(group.apply(names.get(id)),
          nanos - earlier.cpuNanos.getOrDefault(id, 0L), Long::sum));
      return sums;
    }

    long totalSince(Snapshot earlier) {
      return since(earlier, name -> "all").values().stream().mapToLong(Long::longValue).sum();
    }
  }
}
