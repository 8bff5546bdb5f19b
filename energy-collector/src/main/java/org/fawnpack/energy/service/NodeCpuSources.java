package org.fawnpack.energy.service;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.energy.cpu.ContainerCpuSource;
import org.fawnpack.energy.cpu.CpuUtilisation;

/** Where the service's CPU figures come from on a real node. */
final class NodeCpuSources {
  private NodeCpuSources() {
  }

  static ContainerCpuSource containers(Configuration conf) {
    return containers -> Map.of(); // replaced by the process-tree source when it lands
  }

  static CpuUtilisation host() {
    return () -> Double.NaN;
  }
}
