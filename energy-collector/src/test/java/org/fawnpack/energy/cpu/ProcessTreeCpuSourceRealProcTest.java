package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProcessTreeCpuSource} on this machine's real /proc, checked against the JDK's own
 * reading of process CPU time ({@link ProcessHandle.Info#totalCpuDuration()}), an independent
 * oracle.
 */
@EnabledOnOs(OS.LINUX)
class ProcessTreeCpuSourceRealProcTest {
  private static final ContainerProcessKey KEY = new ContainerProcessKey(
      "application_1700000000000_0042", "container_1700000000000_0042_01_000002");
  private static final long TICK_NANOS = 10_000_000L;
  private static final long BUSY_NANOS = 200_000_000L;

  @TempDir
  Path localDir;

  private ProcessTreeCpuSource source() {
    return new ProcessTreeCpuSource(Path.of("/proc"), Path.of("/sys/fs/cgroup"),
        List.of(localDir));
  }

  @Test
  void cumulativeCpuNanos_busyProcess_matchesTheJdksReading() throws Exception {
    Process busy = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
    try {
      FakeProc.writePidFile(localDir, KEY, busy.pid());
      ProcessTreeCpuSource source = source();
      long first = pollUntil(source, nanos -> nanos >= 0);
      long later = pollUntil(source, nanos -> nanos >= first + BUSY_NANOS);
      assertTrue(later > first);
      assertBetweenOracleReadings(source, () -> cpuOf(Stream.of(busy.toHandle())));
    } finally {
      destroyTree(busy);
    }
  }

  @Test
  void cumulativeCpuNanos_busyGrandchild_countsForItsContainer() throws Exception {
    // sh (root, waiting) -> sh (busy loop): only the descendant uses CPU.
    Process root = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' & wait").start();
    try {
      FakeProc.writePidFile(localDir, KEY, root.pid());
      ProcessTreeCpuSource source = source();
      pollUntil(source, nanos -> nanos >= BUSY_NANOS);
      assertBetweenOracleReadings(source,
          () -> cpuOf(Stream.concat(Stream.of(root.toHandle()), root.descendants())));
      destroyTree(root);
      pollUntil(source, nanos -> nanos < 0); // gone once the root has exited
    } finally {
      destroyTree(root);
    }
  }

  /**
   * Several containers in one call, each the root of a busy process tree of its own: every
   * container reads its own tree's CPU (not another's, not the sum), checked against the JDK.
   * (What one call costs is measured by {@code ./fawn bench-energy}, not here.)
   */
  @Test
  void cumulativeCpuNanos_severalContainersInOneCall_eachReadsItsOwnTree() throws Exception {
    List<Process> busy = new ArrayList<>();
    List<ContainerProcessKey> containers = new ArrayList<>();
    try {
      for (int i = 1; i <= 3; i++) {
        Process process = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
        busy.add(process);
        ContainerProcessKey key = new ContainerProcessKey("application_1700000000000_0042",
            "container_1700000000000_0042_01_00000" + i);
        FakeProc.writePidFile(localDir, key, process.pid());
        containers.add(key);
      }
      ProcessTreeCpuSource source = source();
      long deadline = System.nanoTime() + 4_000_000_000L;
      while (source.cumulativeCpuNanos(containers).values().stream()
          .anyMatch(nanos -> nanos < BUSY_NANOS)) {
        if (System.nanoTime() > deadline) {
          fail("not every container reached " + BUSY_NANOS + " ns within 4 s: "
              + source.cumulativeCpuNanos(containers));
        }
        Thread.sleep(20);
      }
      long[] before = new long[busy.size()];
      for (int i = 0; i < busy.size(); i++) {
        before[i] = cpuOf(Stream.of(busy.get(i).toHandle()));
      }
      Map<String, Long> ours = source.cumulativeCpuNanos(containers);
      for (int i = 0; i < busy.size(); i++) {
        long after = cpuOf(Stream.of(busy.get(i).toHandle()));
        long reading = ours.get(containers.get(i).containerId());
        assertTrue(reading >= before[i] - TICK_NANOS && reading <= after + TICK_NANOS,
            containers.get(i).containerId() + ": source " + reading + " ns, JDK " + before[i]
                + ".." + after + " ns");
      }
      assertEquals(containers.size(), ours.size(), ours.toString());
    } finally {
      for (Process process : busy) {
        destroyTree(process);
      }
    }
  }

  /** The source's reading lies between two oracle readings taken just before and after. */
  private static void assertBetweenOracleReadings(ProcessTreeCpuSource source,
      java.util.function.LongSupplier oracle) {
    long before = oracle.getAsLong();
    long ours = read(source);
    long after = oracle.getAsLong();
    // Both count whole clock ticks; allow one tick of skew either side.
    assertTrue(ours >= before - TICK_NANOS && ours <= after + TICK_NANOS,
        "source " + ours + " ns, JDK " + before + ".." + after + " ns");
  }

  private static long cpuOf(Stream<ProcessHandle> processes) {
    return processes.mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos)
        .orElse(0L)).sum();
  }

  private static long read(ProcessTreeCpuSource source) {
    Map<String, Long> all = source.cumulativeCpuNanos(List.of(KEY));
    return all.getOrDefault(KEY.containerId(), -1L);
  }

  /** Polls the source until its reading (-1 when absent) satisfies the condition, for 4 s. */
  private static long pollUntil(ProcessTreeCpuSource source, LongPredicate condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + 4_000_000_000L;
    long nanos;
    while (!condition.test(nanos = read(source))) {
      if (System.nanoTime() > deadline) {
        fail("condition not reached within 4 s; last reading " + nanos);
      }
      Thread.sleep(20);
    }
    return nanos;
  }

  private static void destroyTree(Process process) throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor();
  }
}
