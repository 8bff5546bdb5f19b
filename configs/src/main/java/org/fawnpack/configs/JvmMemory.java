package org.fawnpack.configs;

/**
 * What a Java 17 MapReduce JVM holds besides its heap (metaspace, code cache, thread stacks, the
 * collector's structures, the JVM's own code, the shells YARN starts it from), measured on real
 * daemons (docs/profiles.md, "Java 17 heaps"). A container must hold heap + this, or the
 * NodeManager's physical-memory check kills it; {@link Deriver} sizes heaps with it and
 * {@link Validator} checks them against it.
 */
final class JvmMemory {
  /**
   * A map or reduce JVM (YarnChild): the largest peak resident set less -Xmx measured, plus the
   * container's shells, rounded up to 10 MB.
   */
  static final int TASK_NON_HEAP_MB = 130;
  /** An ApplicationMaster JVM (MRAppMaster: more classes, its web server), the same way. */
  static final int AM_NON_HEAP_MB = 170;
  /**
   * The collector every rendered task and AM JVM runs with: the JVM's own choice below 2 GB or 2
   * CPUs (an Edison), stated so the margin above, measured with it, holds on every node; and a
   * container has one vcore, which a multi-threaded collector would overrun.
   */
  static final String GC = "-XX:+UseSerialGC";
  /** The least heap a map is given: io.sort.mb (0.4 x heap) and a job's own data beside it. */
  static final int MIN_MAP_HEAP_MB = 100;

  private JvmMemory() {}

  /** The heap a container of {@code containerMb} holds, or less than 1 when it holds none. */
  static int taskHeapMb(int containerMb) {
    return containerMb - TASK_NON_HEAP_MB;
  }

  static int amHeapMb(int containerMb) {
    return containerMb - AM_NON_HEAP_MB;
  }

  /** The JVM options for a heap: {@code -Xmx<n>m} and the collector. */
  static String options(int heapMb) {
    return "-Xmx" + heapMb + "m " + GC;
  }
}
