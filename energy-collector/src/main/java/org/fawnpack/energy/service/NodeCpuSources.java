package org.fawnpack.energy.service;

import org.apache.hadoop.conf.Configuration;
import org.fawnpack.energy.cpu.ContainerCpuSource;
import org.fawnpack.energy.cpu.CpuUtilisation;
import org.fawnpack.energy.cpu.HostCpuUtilisation;
import org.fawnpack.energy.cpu.ProcessTreeCpuSource;

/** Where the service's CPU figures come from on a real node. */
final class NodeCpuSources {
  private NodeCpuSources() {
  }

  /** Containers' CPU time: their cgroup when it names them, else their process tree in /proc. */
  static ContainerCpuSource containers(Configuration conf) {
    return ProcessTreeCpuSource.fromConfiguration(conf);
  }

  /** The host's utilisation: SIGAR where its native library loads, else /proc/stat. */
  static CpuUtilisation host() {
    return HostCpuUtilisation.create();
  }
}
