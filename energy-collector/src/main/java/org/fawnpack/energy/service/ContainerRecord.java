package org.fawnpack.energy.service;

/**
 * An immutable copy of a container's account, for history files and recovery checkpoints.
 * Times are wall-clock milliseconds; {@code stopMillis} is -1 while the container runs.
 */
record ContainerRecord(String containerId, String applicationId, String type, int vcores,
    long memoryMb, long startMillis, long stopMillis, long energyMicrojoules,
    long idleMicrojoules, long samples, long gaps, boolean estimated) {

  static ContainerRecord of(ContainerAccount a) {
    return new ContainerRecord(a.containerId, a.applicationId, a.type, a.vcores, a.memoryMb,
        a.startMillis, a.stopMillis, a.energyMicrojoules, a.idleMicrojoules, a.samples, a.gaps,
        a.estimated);
  }

  /** Back into a ledger account; monotonic times restart at {@code nowNanos}. */
  ContainerAccount toAccount(long nowNanos) {
    ContainerAccount a = new ContainerAccount(containerId, applicationId, type, vcores, memoryMb,
        nowNanos, startMillis);
    if (stopMillis >= 0) {
      a.stopNanos = nowNanos;
      a.stopMillis = stopMillis;
    }
    a.energyMicrojoules = energyMicrojoules;
    a.idleMicrojoules = idleMicrojoules;
    a.samples = samples;
    a.gaps = gaps;
    a.estimated = estimated;
    a.restored = true;
    return a;
  }
}
