package org.fawnpack.configs;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * Derives a profile from a node's cores, memory and disks.
 *
 * <p>From 2 GB up it applies Hortonworks' HDP sizing rules (HDP 2.x manual install guide,
 * "Determine HDP Memory Configuration Settings", the rules of its yarn-utils.py): reserve memory
 * for the system by node size, pick a minimum container size by node size, run
 * min(2 x cores, ceil(1.8 x disks), usable / minimum) containers of usable / containers each,
 * heaps at 0.8 x container, io.sort.mb at 0.4 x map container, reduces and the AM at 2 x container.
 *
 * <p>Below 2 GB those rules reserve all or most of the memory, so a second branch takes its
 * numbers from the Edison measurements of seed 003 §5.2 (OS 260 MB, DataNode + NodeManager
 * another 100 MB) and the paper's container size, and sizes each JVM with what a Java 17 JVM
 * holds besides its heap ({@link JvmMemory}, measured): the paper's 10 and 40 MB margins held
 * Java 7 JVMs, not Java 17 ones.
 *
 * <p>Every heap leaves its container that non-heap memory.
 */
public final class Deriver {

  static final String HDP = "HDP yarn-utils rule";
  static final String SMALL = "FAWN sub-2 GB rule";
  /** Seed 003 §5.2: idle Edison uses ~260 MB; DataNode + NodeManager bring it to ~360 MB. */
  static final int SMALL_RESERVED_MB = 360;
  /** Hadoop daemons on a master: NameNode, ResourceManager, JobHistory server, 1 GB heap each. */
  static final int MASTER_DAEMONS_MB = 3 * 1024;

  private Deriver() {}

  /** A profile named {@code name} for a node with these resources. */
  public static Profile derive(String name, int cores, int memoryMb, int disks, Role role) {
    if (cores < 1 || cores > 1024) {
      throw new IllegalArgumentException("--cores must be in [1, 1024]: " + cores);
    }
    if (disks < 1 || disks > 256) {
      throw new IllegalArgumentException("--disks must be in [1, 256]: " + disks);
    }
    if (memoryMb < 512) {
      throw new IllegalArgumentException("--memory must be at least 512 MB (the OS and the "
          + "Hadoop daemons alone need ~360 MB): " + memoryMb + " MB");
    }
    Map<Setting, Sourced> t = memoryMb < 2048
        ? small(cores, memoryMb, disks) : hdp(cores, memoryMb, disks);
    if (role == Role.MASTER) {
      t = master(t, memoryMb);
    }
    String given = "given to derive";
    Profile.Resources resources = new Profile.Resources(Sourced.of(cores, given),
        Sourced.of(memoryMb, given), Sourced.of(disks, given),
        Sourced.of(1000, "assumed 1 Gbps: derive is not told the NIC"));
    return new Profile(name, role, "derived from " + cores + " cores, " + memoryMb + " MB, "
        + disks + " disk(s)", resources, Optional.empty(), t);
  }

  private static Map<Setting, Sourced> hdp(int cores, int memoryMb, int disks) {
    Map<Setting, Sourced> t = new EnumMap<>(Setting.class);
    int reservedMb = hdpReservedGb(memoryMb) * 1024;
    int minContainer = hdpMinContainerMb(memoryMb);
    int usable = memoryMb - reservedMb;
    int containers = containers(cores, disks, usable, minContainer);
    int ram = Math.max(minContainer, usable / containers);
    int node = containers * ram;
    String why = HDP + ": " + memoryMb + " MB - " + reservedMb + " MB reserved = " + usable
        + " MB usable; min(2x" + cores + " cores, ceil(1.8x" + disks + " disks), " + usable + "/"
        + minContainer + ") = " + containers + " containers";
    t.put(Setting.NODE_MEMORY_MB, Sourced.of(node, why + " x " + ram + " MB"));
    t.put(Setting.VCORES, Sourced.of(cores, "one vcore per core (hardware thread)"));
    t.put(Setting.CONTAINER_MB, Sourced.of(ram, HDP + ": max(" + minContainer + ", " + usable
        + "/" + containers + ")"));
    t.put(Setting.MAP_MEMORY_MB, Sourced.of(ram, HDP + ": map = container"));
    t.put(Setting.MAP_HEAP_MB, hdpHeap(ram, "map", JvmMemory.TASK_NON_HEAP_MB));
    t.put(Setting.IO_SORT_MB, Sourced.of(ram * 4 / 10, HDP + ": io.sort.mb = 0.4 x map"));
    int twice = Math.min(2 * ram, node);
    String capped = twice < 2 * ram ? " (capped at the node's " + node + " MB)" : "";
    t.put(Setting.REDUCE_MEMORY_MB, Sourced.of(twice, HDP + ": reduce = 2 x container" + capped));
    t.put(Setting.REDUCE_HEAP_MB, hdpHeap(twice, "reduce", JvmMemory.TASK_NON_HEAP_MB));
    t.put(Setting.AM_MEMORY_MB, Sourced.of(twice, HDP + ": AM = 2 x container" + capped));
    t.put(Setting.AM_HEAP_MB, hdpHeap(twice, "AM", JvmMemory.AM_NON_HEAP_MB));
    t.put(Setting.BLOCK_SIZE_MB, blockSize(ram));
    t.put(Setting.REPLICATION, Sourced.of(3, "Hadoop's default (dfs.replication)"));
    return t;
  }

  private static Map<Setting, Sourced> small(int cores, int memoryMb, int disks) {
    Map<Setting, Sourced> t = new EnumMap<>(Setting.class);
    int usable = floorTo(memoryMb - SMALL_RESERVED_MB, 50);
    if (usable < 256) {
      throw new IllegalArgumentException("--memory " + memoryMb + " MB leaves " + usable
          + " MB after the OS and the DataNode/NodeManager (" + SMALL_RESERVED_MB + " MB, seed 003"
          + " §5.2); one 256 MB container does not fit");
    }
    int containers = containers(cores, disks, usable, 256);
    int ram = floorTo(usable / containers, 50);
    int map = ceilTo(JvmMemory.TASK_NON_HEAP_MB + JvmMemory.MIN_MAP_HEAP_MB, 50);
    if (map > ram) {
      throw new IllegalArgumentException("--memory " + memoryMb + " MB gives containers of " + ram
          + " MB, less than one map of " + map + " MB (a " + JvmMemory.MIN_MAP_HEAP_MB
          + " MB heap and the " + JvmMemory.TASK_NON_HEAP_MB + " MB a Java 17 JVM holds"
          + " besides it)");
    }
    int mapHeap = JvmMemory.taskHeapMb(map);
    int reduceHeap = JvmMemory.taskHeapMb(ram);
    int am = ram;
    int amHeap = JvmMemory.amHeapMb(am);
    if (amHeap < 1) {
      throw new IllegalArgumentException("--memory " + memoryMb + " MB gives containers of " + ram
          + " MB: no room for an ApplicationMaster, which holds " + JvmMemory.AM_NON_HEAP_MB
          + " MB besides its heap on Java 17");
    }
    t.put(Setting.NODE_MEMORY_MB, Sourced.of(usable, SMALL + ": " + memoryMb + " MB - "
        + SMALL_RESERVED_MB + " MB (OS 260 MB + DataNode/NodeManager 100 MB, seed 003 §5.2),"
        + " down to 50 MB"));
    t.put(Setting.VCORES, Sourced.of(cores, "one vcore per core"));
    t.put(Setting.CONTAINER_MB, Sourced.of(ram, SMALL + ": " + usable + " MB / min(2x" + cores
        + " cores, ceil(1.8x" + disks + " disks), " + usable + "/256) = " + containers
        + " containers, down to 50 MB"));
    t.put(Setting.MAP_MEMORY_MB, Sourced.of(map, SMALL + ": a " + JvmMemory.MIN_MAP_HEAP_MB
        + " MB heap + " + JvmMemory.TASK_NON_HEAP_MB + " MB a Java 17 task JVM holds besides it"
        + " (measured, docs/profiles.md), up to 50 MB (seed 003 §5.2.1's 150 MB maps held"
        + " Java 7 JVMs)"));
    t.put(Setting.MAP_HEAP_MB, Sourced.of(mapHeap, SMALL + ": map - " + JvmMemory.TASK_NON_HEAP_MB
        + " MB, the measured Java 17 non-heap (seed 003 §5.2.1 left 10 MB)"));
    t.put(Setting.IO_SORT_MB, Sourced.of(mapHeap * 4 / 10, SMALL + ": 0.4 x the map heap (seed"
        + " 003 §5.2.1 gave half; the buffer sits in the old generation, two thirds of the heap,"
        + " beside the job's own data)"));
    t.put(Setting.REDUCE_MEMORY_MB, Sourced.of(ram, SMALL + ": one container"));
    t.put(Setting.REDUCE_HEAP_MB, Sourced.of(reduceHeap, SMALL + ": reduce - "
        + JvmMemory.TASK_NON_HEAP_MB + " MB, the measured Java 17 non-heap (seed 003 §5.2.1 left"
        + " 40 MB)"));
    t.put(Setting.AM_MEMORY_MB, Sourced.of(am, SMALL + ": one container (seed 003 §5.2's 100 MB"
        + " AM holds no Java 17 AM)"));
    t.put(Setting.AM_HEAP_MB, Sourced.of(amHeap, SMALL + ": AM - " + JvmMemory.AM_NON_HEAP_MB
        + " MB, the measured Java 17 AM non-heap"));
    t.put(Setting.BLOCK_SIZE_MB, blockSize(ram));
    t.put(Setting.REPLICATION, Sourced.of(2, SMALL + ": 2, ~95% data-local maps on 35 nodes"
        + " (seed 003 §5.2)"));
    return t;
  }

  /** A master keeps the AM settings and gives the NodeManager what the daemons leave. */
  private static Map<Setting, Sourced> master(Map<Setting, Sourced> slave, int memoryMb) {
    Map<Setting, Sourced> t = new EnumMap<>(Setting.class);
    // Many AMs share a master: size each by HDP's AM rule applied to the minimum container,
    // not to a slave's (large) container.
    int am = memoryMb < 2048 ? slave.get(Setting.AM_MEMORY_MB).intValue()
        : 2 * hdpMinContainerMb(memoryMb);
    int usable = memoryMb - (memoryMb < 2048 ? SMALL_RESERVED_MB : hdpReservedGb(memoryMb) * 1024)
        - MASTER_DAEMONS_MB;
    if (usable < am) {
      throw new IllegalArgumentException(memoryMb + " MB is too small for a master: the system,"
          + " the NameNode, ResourceManager and JobHistory server (1 GB heap each) leave " + usable
          + " MB, less than one " + am + " MB ApplicationMaster (seed 003 §5.2: a wimpy master"
          + " is the bottleneck)");
    }
    t.put(Setting.NODE_MEMORY_MB, Sourced.of(usable, "master: usable memory less 3 x 1 GB for the"
        + " NameNode, ResourceManager and JobHistory server heaps; only AMs run here"));
    t.put(Setting.VCORES, slave.get(Setting.VCORES));
    t.put(Setting.AM_MEMORY_MB, Sourced.of(am, HDP + ": AM = 2 x the minimum container ("
        + (am / 2) + " MB for this memory), so the master holds many"));
    t.put(Setting.AM_HEAP_MB, memoryMb < 2048 ? slave.get(Setting.AM_HEAP_MB)
        : hdpHeap(am, "AM", JvmMemory.AM_NON_HEAP_MB));
    return t;
  }

  /**
   * HDP's heap = 0.8 x container, unless that leaves the container less than what a Java 17 JVM
   * holds besides its heap (measured): then container - that.
   */
  private static Sourced hdpHeap(int containerMb, String what, int nonHeapMb) {
    int hdp = containerMb * 8 / 10;
    if (hdp + nonHeapMb <= containerMb) {
      return Sourced.of(hdp, HDP + ": heap = 0.8 x " + what);
    }
    return Sourced.of(containerMb - nonHeapMb, what + " - " + nonHeapMb + " MB, the measured"
        + " Java 17 non-heap (HDP's 0.8 x " + what + " = " + hdp + " MB leaves less)");
  }

  private static int containers(int cores, int disks, int usableMb, int minContainerMb) {
    int byDisks = (int) Math.ceil(1.8 * disks);
    return Math.max(1, Math.min(2 * cores, Math.min(byDisks, usableMb / minContainerMb)));
  }

  /** Seed 003 §5.2: block size proportional to container memory (16 MB / 300 MB, 64 MB / 1 GB). */
  private static Sourced blockSize(int containerMb) {
    int block = Integer.highestOneBit(Math.max(1, containerMb / 16));
    return Sourced.of(block, "largest power of two <= container / 16 (seed 003 §5.2: 16 MB for"
        + " 300 MB containers, 64 MB for 1 GB)");
  }

  /** HDP "Reserved Memory Recommendations", system column, by total node memory. */
  static int hdpReservedGb(int memoryMb) {
    int gb = (int) Math.ceil(memoryMb / 1024.0);
    int[][] table = {{4, 1}, {8, 2}, {16, 2}, {24, 4}, {48, 6}, {64, 8}, {72, 8}, {96, 12},
        {128, 24}, {256, 32}};
    for (int[] row : table) {
      if (gb <= row[0]) {
        return row[1];
      }
    }
    return 64;
  }

  /** HDP "Recommended Container Size Values" by total node memory. */
  static int hdpMinContainerMb(int memoryMb) {
    if (memoryMb <= 4 * 1024) {
      return 256;
    }
    if (memoryMb <= 8 * 1024) {
      return 512;
    }
    return memoryMb <= 24 * 1024 ? 1024 : 2048;
  }

  private static int floorTo(int value, int step) {
    return value / step * step;
  }

  private static int ceilTo(int value, int step) {
    return (value + step - 1) / step * step;
  }
}
