package org.fawnpack.configs;

import java.util.Comparator;
import java.util.List;

/**
 * The settings every host of a cluster must agree on, computed from all its hosts.
 *
 * <ul>
 * <li>Job sizes (map, reduce, heaps, io.sort.mb) come from the slave profile with the least
 *     NodeManager memory: a task may land on any slave, so it must fit the smallest.</li>
 * <li>The ApplicationMaster's size comes from the master profile: AMs run on its NodeManager.</li>
 * <li>{@code yarn.scheduler.minimum-allocation-mb} is the greatest common divisor of the map,
 *     reduce and AM sizes (the scheduler rounds every request up to a multiple of it), and never
 *     above the smallest NodeManager (the ResourceManager shuts down a smaller one).</li>
 * <li>{@code yarn.scheduler.maximum-allocation-*} are the largest NodeManager's.</li>
 * <li>Block size: the smallest any slave profile asks for; replication: the largest, capped
 *     at the number of DataNodes (a replica needs a DataNode of its own).</li>
 * </ul>
 */
public record ClusterPlan(Inventory inventory, Profile jobProfile, Profile masterProfile,
    int schedulerMinMb, int schedulerMaxMb, int schedulerMaxVcores, int blockSizeMb,
    int replication, int dataNodes) {

  public static ClusterPlan of(Inventory inventory) {
    List<Inventory.Host> slaves = inventory.slaves();
    Profile job = slaves.stream().map(Inventory.Host::profile)
        .min(Comparator.comparingInt(p -> p.get(Setting.NODE_MEMORY_MB))).orElseThrow();
    Profile master = inventory.master().profile();
    int am = master.get(Setting.AM_MEMORY_MB);
    int gcd = gcd(gcd(job.get(Setting.MAP_MEMORY_MB), job.get(Setting.REDUCE_MEMORY_MB)), am);
    int smallestNode = inventory.hosts().stream()
        .mapToInt(h -> h.profile().get(Setting.NODE_MEMORY_MB)).min().orElseThrow();
    int maxMb = inventory.hosts().stream()
        .mapToInt(h -> h.profile().get(Setting.NODE_MEMORY_MB)).max().orElseThrow();
    int maxVcores = inventory.hosts().stream()
        .mapToInt(h -> h.profile().get(Setting.VCORES)).max().orElseThrow();
    int block = slaves.stream().mapToInt(h -> h.profile().get(Setting.BLOCK_SIZE_MB)).min()
        .orElseThrow();
    int wanted = slaves.stream().mapToInt(h -> h.profile().get(Setting.REPLICATION)).max()
        .orElseThrow();
    return new ClusterPlan(inventory, job, master, Math.min(gcd, smallestNode), maxMb, maxVcores,
        block, Math.min(wanted, slaves.size()), slaves.size());
  }

  static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
