package org.fawnpack.energy.service;

import java.util.HashMap;
import java.util.Map;
import org.fawnpack.energy.cpu.CpuUtilisation;

/**
 * Utilisation of this NodeManager's vcores by its containers: their CPU time over the interval
 * divided by interval × vcores. For the {@code model} meter when several NodeManagers share one
 * host (the embedded demo cluster), where the host's /proc/stat would charge every node for all.
 */
final class ContainerCpuUtilisation implements org.fawnpack.energy.cpu.CpuUtilisation {
  private final int vcores;
  private Map<String, Long> previous = Map.of();
  private long previousNanos = -1;
  private double utilisation = Double.NaN;

  ContainerCpuUtilisation(int vcores) {
    this.vcores = Math.max(1, vcores);
  }

  /** Called by the sampler with the CPU times it read at the start of each interval. */
  synchronized void observe(Map<String, Long> cpuNanos, long nowNanos) {
    if (previousNanos >= 0 && nowNanos > previousNanos) {
      long used = 0;
      for (Map.Entry<String, Long> entry : cpuNanos.entrySet()) {
        Long before = previous.get(entry.getKey());
        used += Math.max(0, entry.getValue() - (before == null ? 0 : before));
      }
      utilisation = Math.min(1.0, used / ((double) (nowNanos - previousNanos) * vcores));
    }
    previous = new HashMap<>(cpuNanos);
    previousNanos = nowNanos;
  }

  @Override
  public synchronized double sinceLastCall() {
    return utilisation;
  }

  static CpuUtilisation forVcores(int vcores) {
    return new ContainerCpuUtilisation(vcores);
  }
}
