package org.fawnpack.energy.service;

import org.fawnpack.energy.ContainerEnergy;

/** One container's running total in the ledger. Guarded by the ledger's lock. */
final class ContainerAccount {
  final String containerId;
  final String applicationId;
  final String type;
  final int vcores;
  final long memoryMb;
  final long startNanos;
  final long startMillis;
  long stopNanos = -1;
  long stopMillis = -1;

  long energyMicrojoules;
  long idleMicrojoules;
  long samples;
  long gaps;
  boolean estimated;
  /** CPU time at the previous interval's end; -1 until first read. */
  long lastCpuNanos = -1;
  /** Restored from a checkpoint: its first CPU reading is a baseline, not this interval's use. */
  boolean restored;

  ContainerAccount(String containerId, String applicationId, String type, int vcores,
      long memoryMb, long startNanos, long startMillis) {
    this.containerId = containerId;
    this.applicationId = applicationId;
    this.type = type;
    this.vcores = vcores;
    this.memoryMb = memoryMb;
    this.startNanos = startNanos;
    this.startMillis = startMillis;
  }

  boolean stopped() {
    return stopNanos >= 0;
  }

  ContainerEnergy snapshot() {
    return new ContainerEnergy(energyMicrojoules, idleMicrojoules, samples, gaps, estimated);
  }
}
