package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.fawnpack.energy.cpu.CgroupCpuCounter.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupCpuCounterTest {
  private static final String ID = "container_e17_1700000000000_0001_01_000003";
  private static final Path ROOT = Path.of("/sys/fs/cgroup");

  @Test
  void candidates_v2AndV1Mounts_v2FirstThenEveryV1Mount() {
    List<CgroupCpuCounter> found = CgroupCpuCounter.candidates(List.of(
        "5:cpuacct,cpu:/hadoop-yarn/" + ID, "0::/hadoop-yarn/" + ID), ROOT, ID);
    assertEquals(List.of(
        "/sys/fs/cgroup/hadoop-yarn/" + ID + "/cpu.stat",
        "/sys/fs/cgroup/unified/hadoop-yarn/" + ID + "/cpu.stat",
        "/sys/fs/cgroup/cpuacct,cpu/hadoop-yarn/" + ID + "/cpuacct.usage",
        "/sys/fs/cgroup/cpu,cpuacct/hadoop-yarn/" + ID + "/cpuacct.usage",
        "/sys/fs/cgroup/cpuacct/hadoop-yarn/" + ID + "/cpuacct.usage"),
        found.stream().map(CgroupCpuCounter::toString).toList());
    assertEquals(Kind.V2_CPU_STAT, found.get(0).kind());
    assertEquals(Kind.V1_CPUACCT_USAGE, found.get(4).kind());
  }

  @Test
  void candidates_otherContainersAndControllers_ignored() {
    assertTrue(CgroupCpuCounter.candidates(List.of("0::/user.slice", "4:cpu,cpuacct:/",
        "7:memory:/hadoop-yarn/" + ID, "garbage"), ROOT, ID).isEmpty());
  }

  @Test
  void read_v2UsageOnAnyLineOrV1Nanoseconds_parsed(@TempDir Path tmp) throws IOException {
    SmallFileReader reader = new SmallFileReader();
    Path v2 = tmp.resolve("cpu.stat");
    FakeProc.write(v2, "usage_usec_x 1\nuser_usec 3\nusage_usec 42\n");
    assertEquals(42_000L, new CgroupCpuCounter(v2, Kind.V2_CPU_STAT).readNanos(reader));
    Path v1 = tmp.resolve("cpuacct.usage");
    FakeProc.write(v1, "123456789012\n");
    assertEquals(123_456_789_012L, new CgroupCpuCounter(v1, Kind.V1_CPUACCT_USAGE)
        .readNanos(reader));
    assertEquals(-1, new CgroupCpuCounter(tmp.resolve("gone"), Kind.V2_CPU_STAT)
        .readNanos(reader));
  }
}
