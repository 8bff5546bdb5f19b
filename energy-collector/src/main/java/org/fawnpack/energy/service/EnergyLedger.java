package org.fawnpack.energy.service;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.fawnpack.energy.ContainerEnergy;
import org.fawnpack.energy.cpu.ContainerProcessKey;

/**
 * Who used the node's energy. Each interval's energy is split among the containers that were
 * alive in it: the idle part by allocation (vcores × the fraction of the interval the container
 * was alive), the rest by CPU time when every running container's CPU time could be read, else by
 * allocation too. An interval with no container goes to the node's own idle account. All amounts
 * are whole microjoules and every split is exact, so at any moment
 * {@code metered = node idle + sum of all container accounts}.
 */
final class EnergyLedger {
  private final Map<String, ContainerAccount> live = new LinkedHashMap<>();
  /** Accounts of stopped containers, kept until their application's history is written. */
  private final Map<String, ContainerAccount> finished = new HashMap<>();
  private long meteredMicrojoules;
  private long nodeIdleMicrojoules;
  /** Energy of accounts already written out and dropped, so the totals still balance. */
  private long archivedMicrojoules;

  synchronized void open(String containerId, String applicationId, String type, int vcores,
      long memoryMb, long nowNanos, long nowMillis) {
    if (live.containsKey(containerId) || finished.containsKey(containerId)) {
      return; // NodeManager recovery may announce a container twice
    }
    live.put(containerId, new ContainerAccount(containerId, applicationId, type,
        Math.max(vcores, 0), Math.max(memoryMb, 0), nowNanos, nowMillis));
  }

  /** Marks a container stopped; its last share is settled by the next interval. */
  synchronized void markStopped(String containerId, long nowNanos, long nowMillis) {
    ContainerAccount account = live.get(containerId);
    if (account != null && !account.stopped()) {
      account.stopNanos = nowNanos;
      account.stopMillis = nowMillis;
    }
  }

  synchronized List<ContainerProcessKey> runningContainers() {
    List<ContainerProcessKey> keys = new ArrayList<>(live.size());
    for (ContainerAccount account : live.values()) {
      if (!account.stopped()) {
        keys.add(new ContainerProcessKey(account.applicationId, account.containerId));
      }
    }
    return keys;
  }

  synchronized int liveCount() {
    return live.size();
  }

  /**
   * Books one interval. Returns the microjoules each application got in it (for the power
   * history), empty when the interval went to node idle.
   */
  synchronized Map<String, Long> book(Interval interval) {
    meteredMicrojoules += interval.energyMicrojoules();
    List<ContainerAccount> alive = new ArrayList<>();
    List<Double> aliveFractions = new ArrayList<>();
    for (ContainerAccount account : live.values()) {
      double fraction = aliveFraction(account, interval);
      if (fraction > 0) {
        alive.add(account);
        aliveFractions.add(fraction);
      }
    }
    Map<String, Long> perApplication = new HashMap<>();
    if (alive.isEmpty()) {
      nodeIdleMicrojoules += interval.energyMicrojoules();
    } else {
      double[] allocation = new double[alive.size()];
      for (int i = 0; i < allocation.length; i++) {
        allocation[i] = Math.max(alive.get(i).vcores, 1) * aliveFractions.get(i);
      }
      long[] idle = Apportion.split(interval.idleMicrojoules(), allocation);
      long dynamicTotal = interval.energyMicrojoules() - interval.idleMicrojoules();
      long[] dynamic = Apportion.split(dynamicTotal, dynamicWeights(alive, allocation, interval));
      for (int i = 0; i < alive.size(); i++) {
        ContainerAccount account = alive.get(i);
        long share = idle[i] + dynamic[i];
        account.idleMicrojoules += idle[i];
        account.energyMicrojoules += share;
        account.samples++;
        if (interval.gap()) {
          account.gaps++;
        }
        account.estimated |= interval.estimated();
        perApplication.merge(account.applicationId, share, Long::sum);
      }
    }
    rememberCpu(interval);
    retireStopped(interval.endNanos());
    return perApplication;
  }

  private static double aliveFraction(ContainerAccount account, Interval interval) {
    long length = interval.lengthNanos();
    if (length <= 0) {
      return 0;
    }
    long from = Math.max(interval.startNanos(), account.startNanos);
    long to = account.stopped() ? Math.min(interval.endNanos(), account.stopNanos)
        : interval.endNanos();
    return Math.max(0, Math.min(1.0, (double) (to - from) / length));
  }

  /** CPU-time deltas when every running container's are known and some CPU was used. */
  private static double[] dynamicWeights(List<ContainerAccount> alive, double[] allocation,
      Interval interval) {
    double[] cpu = new double[alive.size()];
    double total = 0;
    for (int i = 0; i < cpu.length; i++) {
      ContainerAccount account = alive.get(i);
      Long now = interval.cpuNanos().get(account.containerId);
      if (now != null && account.lastCpuNanos >= 0) {
        cpu[i] = Math.max(0, now - account.lastCpuNanos);
      } else if (now != null && !account.restored
          && account.startNanos >= interval.startNanos()) {
        cpu[i] = now; // started within this interval: all its CPU time is from this interval
      } else if (account.stopped()) {
        cpu[i] = 0; // its processes are gone; whatever they used was read last interval
      } else {
        return allocation; // a running container we cannot read: CPU shares would be unfair
      }
      total += cpu[i];
    }
    return total > 0 ? cpu : allocation;
  }

  private void rememberCpu(Interval interval) {
    for (Map.Entry<String, Long> entry : interval.cpuNanos().entrySet()) {
      ContainerAccount account = live.get(entry.getKey());
      if (account != null) {
        account.lastCpuNanos = entry.getValue();
      }
    }
  }

  private void retireStopped(long endNanos) {
    live.values().removeIf(account -> {
      if (account.stopped() && account.stopNanos <= endNanos) {
        finished.put(account.containerId, account);
        return true;
      }
      return false;
    });
  }

  synchronized Optional<ContainerEnergy> energyOf(String containerId) {
    ContainerAccount account = live.get(containerId);
    if (account == null) {
      account = finished.get(containerId);
    }
    return Optional.ofNullable(account).map(ContainerAccount::snapshot);
  }

  /** Copies of one application's accounts (live and finished), for its history file. */
  synchronized List<ContainerRecord> applicationRecords(String applicationId) {
    List<ContainerRecord> records = new ArrayList<>();
    for (Collection<ContainerAccount> accounts : List.of(live.values(), finished.values())) {
      for (ContainerAccount account : accounts) {
        if (account.applicationId.equals(applicationId)) {
          records.add(ContainerRecord.of(account));
        }
      }
    }
    records.sort((a, b) -> a.containerId().compareTo(b.containerId()));
    return records;
  }

  /** Drops an application's finished accounts once its history is safe. */
  synchronized void forgetApplication(String applicationId) {
    finished.values().removeIf(account -> {
      if (account.applicationId.equals(applicationId)) {
        archivedMicrojoules += account.energyMicrojoules;
        return true;
      }
      return false;
    });
  }

  synchronized long meteredMicrojoules() {
    return meteredMicrojoules;
  }

  synchronized long nodeIdleMicrojoules() {
    return nodeIdleMicrojoules;
  }

  /** Sum of every container account, including those already written out and dropped. */
  synchronized long attributedMicrojoules() {
    long sum = archivedMicrojoules;
    for (ContainerAccount account : live.values()) {
      sum += account.energyMicrojoules;
    }
    for (ContainerAccount account : finished.values()) {
      sum += account.energyMicrojoules;
    }
    return sum;
  }

  /** Everything, for a recovery checkpoint. */
  synchronized LedgerState state() {
    List<ContainerRecord> records = new ArrayList<>();
    live.values().forEach(a -> records.add(ContainerRecord.of(a)));
    finished.values().forEach(a -> records.add(ContainerRecord.of(a)));
    return new LedgerState(meteredMicrojoules, nodeIdleMicrojoules, archivedMicrojoules, records);
  }

  /**
   * Restores a checkpoint after a NodeManager restart. Containers that were running come back as
   * running (YARN recovers them) with their CPU baseline unknown until the next read.
   */
  synchronized void restore(LedgerState state, long nowNanos) {
    meteredMicrojoules = state.meteredMicrojoules();
    nodeIdleMicrojoules = state.nodeIdleMicrojoules();
    archivedMicrojoules = state.archivedMicrojoules();
    live.clear();
    finished.clear();
    for (ContainerRecord record : state.containers()) {
      ContainerAccount account = record.toAccount(nowNanos);
      (account.stopped() ? finished : live).put(account.containerId, account);
    }
  }
}
