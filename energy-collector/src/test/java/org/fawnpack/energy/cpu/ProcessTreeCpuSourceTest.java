package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ProcessTreeCpuSource} on fake /proc, cgroup and local-dir trees. */
class ProcessTreeCpuSourceTest {
  private static final long TICK = 10_000_000L; // ns per tick at 100 Hz

  private static final ContainerProcessKey A =
      new ContainerProcessKey("application_1700000000000_0001",
          "container_1700000000000_0001_01_000001");
  private static final ContainerProcessKey B =
      new ContainerProcessKey("application_1700000000000_0001",
          "container_1700000000000_0001_01_000002");

  @TempDir
  Path tmp;
  private FakeProc proc;
  private Path cgroups;
  private Path dir1;
  private Path dir2;
  private ProcessTreeCpuSource source;

  @BeforeEach
  void setUp() {
    proc = new FakeProc(tmp.resolve("proc"));
    cgroups = tmp.resolve("cgroup");
    dir1 = tmp.resolve("local1");
    dir2 = tmp.resolve("local2");
    FakeProc.mkdirs(cgroups);
    FakeProc.mkdirs(dir1);
    FakeProc.mkdirs(dir2);
    source = new ProcessTreeCpuSource(proc.proc, cgroups, List.of(dir1, dir2));
    // init, the NodeManager, and a process unrelated to any container.
    proc.process(1, "systemd", 0, 5000)
        .process(50, "java", 1, 7000)
        .process(900, "unrelated (busy) one", 1, 100_000);
  }

  /** Container A: a 3-level tree 100 -> {101 -> {103}, 102}, odd comm fields included. */
  private void treeA() {
    proc.process(100, "bash", 50, 1, 2, 3, 4, 1000) // 10 ticks, 3+4 from reaped children
        .process(101, "java (main) x", 100, 100, 20, 0, 0, 1001)
        .process(102, "sh) -c (", 100, 5, 5, 0, 0, 1002)
        .process(103, "a b)c", 101, 40, 0, 0, 0, 1003);
    FakeProc.writePidFile(dir1, A, 100);
  }

  private static final long TREE_A_TICKS = 10 + 120 + 10 + 40;

  private Map<String, Long> read(ContainerProcessKey... keys) {
    return source.cumulativeCpuNanos(List.of(keys));
  }

  @Test
  void cpuTimes_processTree_sumsWholeTreeOnly() {
    treeA();
    assertEquals(Map.of(A.containerId(), TREE_A_TICKS * TICK), read(A));
  }

  @Test
  void cpuTimes_pidFileInEitherLocalDir_found() {
    treeA();
    proc.process(200, "bash", 50, 1, 1, 0, 0, 2000).process(201, "java", 200, 300);
    FakeProc.writePidFile(dir2, B, 200);
    assertEquals(Map.of(A.containerId(), TREE_A_TICKS * TICK, B.containerId(), 302 * TICK),
        read(A, B));
  }

  @Test
  void cpuTimes_noPidFile_absentUntilFileAppears() throws IOException {
    proc.process(100, "bash", 50, 7);
    assertEquals(Map.of(), read(A));
    FakeProc.writePidFile(dir2, A, 100);
    assertEquals(Map.of(A.containerId(), 7 * TICK), read(A));
    // The pid is remembered: the file is not needed again.
    Files.delete(FakeProc.pidFile(dir2, A));
    assertEquals(Map.of(A.containerId(), 7 * TICK), read(A));
  }

  @Test
  void cpuTimes_emptyPidFile_ignored() {
    FakeProc.write(FakeProc.pidFile(dir1, A), "");
    FakeProc.write(FakeProc.pidFile(dir1, B), "not-a-pid\n");
    assertEquals(Map.of(), read(A, B));
  }

  @Test
  void cpuTimes_twoCalls_countsGrowth() {
    treeA();
    long before = read(A).get(A.containerId());
    proc.process(103, "a b)c", 101, 90, 0, 0, 0, 1003);
    assertEquals(before + 50 * TICK, read(A).get(A.containerId()));
  }

  @Test
  void cpuTimes_rootProcessExited_containerAbsent() {
    treeA();
    assertTrue(read(A).containsKey(A.containerId()));
    proc.vanish(100);
    assertEquals(Map.of(), read(A));
  }

  @Test
  void cpuTimes_recycledPid_notTakenForContainer() {
    treeA();
    assertTrue(read(A).containsKey(A.containerId()));
    proc.process(100, "other", 1, 1, 1, 0, 0, 5555); // same pid, later start time
    assertEquals(Map.of(), read(A));
    assertEquals(Map.of(), read(A));
  }

  @Test
  void cpuTimes_containerRelaunched_followedAndNeverBackwards() {
    treeA();
    long before = read(A).get(A.containerId());
    proc.vanish(100);
    proc.vanish(101);
    proc.vanish(102);
    proc.vanish(103);
    assertEquals(Map.of(), read(A));
    proc.process(300, "bash", 50, 4);
    FakeProc.writePidFile(dir1, A, 300);
    // A fresh process starts from zero; the series continues from where it was.
    assertEquals(before, read(A).get(A.containerId()));
    proc.process(300, "bash", 50, 9);
    assertEquals(before + 5 * TICK, read(A).get(A.containerId()));
  }

  @Test
  void cpuTimes_descendantVanishes_neverBackwards() {
    treeA();
    long before = read(A).get(A.containerId());
    proc.vanish(103); // exited, not (yet) reaped into 101's cutime
    assertEquals(before, read(A).get(A.containerId()));
    proc.process(101, "java (main) x", 100, 110, 20, 0, 0, 1001);
    assertEquals(before + 10 * TICK, read(A).get(A.containerId()));
  }

  @Test
  void cpuTimes_processDirectoryWithoutStat_skipped() {
    treeA();
    FakeProc.mkdirs(proc.proc.resolve("104"));
    FakeProc.mkdirs(proc.proc.resolve("self"));
    FakeProc.write(proc.proc.resolve("105").resolve("stat"), "garbage");
    assertEquals(Map.of(A.containerId(), TREE_A_TICKS * TICK), read(A));
  }

  @Test
  void cpuTimes_otherClockTickRate_honoured() {
    treeA();
    source = new ProcessTreeCpuSource(proc.proc, cgroups, List.of(dir1), 250);
    assertEquals(Map.of(A.containerId(), TREE_A_TICKS * 4_000_000L), read(A));
  }

  @Test
  void cpuTimes_cgroupV2Counter_preferred() {
    treeA();
    proc.cgroupFile(100, "0::/hadoop-yarn/" + A.containerId() + "\n");
    FakeProc.write(cgroups.resolve("hadoop-yarn").resolve(A.containerId()).resolve("cpu.stat"),
        "usage_usec 1234567\nuser_usec 1000000\nsystem_usec 234567\n");
    assertEquals(Map.of(A.containerId(), 1_234_567_000L), read(A));
  }

  @Test
  void cpuTimes_cgroupV1Cpuacct_read() {
    treeA();
    proc.cgroupFile(100, "12:pids:/hadoop-yarn/" + A.containerId() + "\n"
        + "4:cpu,cpuacct:/hadoop-yarn/" + A.containerId() + "\n"
        + "1:name=systemd:/system.slice/hadoop-nodemanager.service\n0::/\n");
    FakeProc.write(cgroups.resolve("cpu,cpuacct").resolve("hadoop-yarn")
        .resolve(A.containerId()).resolve("cpuacct.usage"), "987654321\n");
    assertEquals(Map.of(A.containerId(), 987_654_321L), read(A));
  }

  @Test
  void cpuTimes_cgroupV1CpuacctMountedAlone_read() {
    treeA();
    proc.cgroupFile(100, "3:cpuacct:/yarn/" + A.containerId() + "\n2:cpu:/yarn/"
        + A.containerId() + "\n");
    FakeProc.write(cgroups.resolve("cpuacct").resolve("yarn").resolve(A.containerId())
        .resolve("cpuacct.usage"), "5000\n");
    assertEquals(Map.of(A.containerId(), 5000L), read(A));
  }

  @Test
  void cpuTimes_cgroupOfAnotherName_notUsed() {
    treeA();
    proc.cgroupFile(100, "0::/system.slice/hadoop-nodemanager.service\n");
    FakeProc.write(cgroups.resolve("system.slice").resolve("hadoop-nodemanager.service")
        .resolve("cpu.stat"), "usage_usec 999999999\n");
    assertEquals(Map.of(A.containerId(), TREE_A_TICKS * TICK), read(A));
  }

  @Test
  void cpuTimes_cgroupCounterMissing_fallsBackToTree() {
    treeA();
    proc.cgroupFile(100, "0::/hadoop-yarn/" + A.containerId() + "\n"); // no cpu.stat file
    assertEquals(Map.of(A.containerId(), TREE_A_TICKS * TICK), read(A));
  }

  @Test
  void cpuTimes_cgroupContainerRootExited_absent() {
    treeA();
    proc.cgroupFile(100, "0::/hadoop-yarn/" + A.containerId() + "\n");
    FakeProc.write(cgroups.resolve("hadoop-yarn").resolve(A.containerId()).resolve("cpu.stat"),
        "usage_usec 10\n");
    assertEquals(Map.of(A.containerId(), 10_000L), read(A));
    proc.vanish(100);
    assertEquals(Map.of(), read(A));
  }

  @Test
  void cpuTimes_everyContainerHasCgroup_procNotScanned() {
    treeA();
    proc.cgroupFile(100, "0::/hadoop-yarn/" + A.containerId() + "\n");
    FakeProc.write(cgroups.resolve("hadoop-yarn").resolve(A.containerId()).resolve("cpu.stat"),
        "usage_usec 10\n");
    read(A);
    assertEquals(-1, source.lastScanSize());
  }

  @Test
  void cpuTimes_nothingReadable_neverThrows() {
    FakeProc.writePidFile(dir1, A, 100);
    source = new ProcessTreeCpuSource(tmp.resolve("missing-proc"), tmp.resolve("missing-cg"),
        List.of(tmp.resolve("missing-local")));
    assertEquals(Map.of(), read(A, B));
    assertFalse(source.cumulativeCpuNanos(List.of()).containsKey(A.containerId()));
  }
}
