package org.fawnpack.energy.cpu;

import java.util.Collection;
import java.util.Map;

/**
 * Reads how much CPU time each container has used so far, for attributing energy by CPU time.
 * Called once per sampling interval with all live containers, so an implementation can read
 * {@code /proc} once for all of them.
 */
public interface ContainerCpuSource {

  /**
   * Cumulative CPU time in nanoseconds (user + system, the container's whole process tree or
   * cgroup) for each container whose time can be read now. A container whose processes cannot be
   * found or read (not started yet, already gone, no permission) is absent from the map; the
   * caller then falls back to attribution by allocated vcores. Never throws.
   */
  Map<String, Long> cumulativeCpuNanos(Collection<ContainerProcessKey> containers);
}
