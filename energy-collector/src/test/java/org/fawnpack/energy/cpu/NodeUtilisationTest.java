package org.fawnpack.energy.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's utilisation per interval: against a /proc tree written here (each figure worked
 * out by hand), and against this machine's own /proc read independently here.
 */
class NodeUtilisationTest {
  @TempDir
  Path proc;

  private void write(long user, long idle, long memAvailableKib, long sdaRead, long sdaWritten,
      long eth0Rx, long eth0Tx) throws IOException {
    Files.createDirectories(proc.resolve("net"));
    Files.writeString(proc.resolve("stat"), "cpu  " + user + " 0 0 " + idle
        + " 0 0 0 0 0 0\ncpu0 1 2 3 4\n");
    Files.writeString(proc.resolve("meminfo"), "MemTotal:        1000000 kB\nMemFree:"
        + "          100 kB\nMemAvailable:     " + memAvailableKib + " kB\n");
    // major minor name reads merged sectors-read ms writes merged sectors-written ...
    Files.writeString(proc.resolve("diskstats"), String.join("\n",
        "   8       0 sda 10 0 " + sdaRead + " 5 20 0 " + sdaWritten + " 7 0 1 1",
        "   8       1 sda1 10 0 " + sdaRead + " 5 20 0 " + sdaWritten + " 7 0 1 1",
        " 179       0 mmcblk0 1 0 100 1 1 0 100 1 0 1 1",
        " 179       1 mmcblk0p1 1 0 100 1 1 0 100 1 0 1 1",
        "   7       0 loop0 1 0 999 1 1 0 999 1 0 1 1",
        " 253       0 dm-0 1 0 999 1 1 0 999 1 0 1 1") + "\n");
    Files.writeString(proc.resolve("net").resolve("dev"), String.join("\n",
        "Inter-|   Receive                            |  Transmit",
        " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets",
        "    lo: 5000000 10 0 0 0 0 0 0 5000000 10 0 0 0 0 0 0",
        "  eth0: " + eth0Rx + " 10 0 0 0 0 0 0 " + eth0Tx + " 10 0 0 0 0 0 0") + "\n");
  }

  @Test
  void deltasOfTheWholeDisksAndTheInterfacesButLoopback() throws IOException {
    NodeUtilisation u = new NodeUtilisation(proc);
    write(100, 900, 400_000, 1_000, 2_000, 10_000, 20_000);
    NodeUtilisation.Sample first = u.sample();
    assertEquals(-1, first.diskReadBytes(), "the first sample only sets the baselines");
    write(160, 940, 300_000, 1_010, 2_004, 15_000, 20_500);
    NodeUtilisation.Sample s = u.sample();
    assertEquals(60.0 / 100, s.cpuShare(), 1e-9, "60 of 100 jiffies busy");
    assertEquals((1_000_000 - 300_000) * 1024L, s.memoryUsedBytes());
    assertEquals(10 * 512L, s.diskReadBytes(), "sda only: sda1 is its partition, loop and dm"
        + " are not disks, mmcblk0 did nothing");
    assertEquals(4 * 512L, s.diskWrittenBytes());
    assertEquals(5_000, s.netReceivedBytes(), "eth0 only");
    assertEquals(500, s.netSentBytes());
  }

  @Test
  void missingFiles_unknownNotZero() {
    NodeUtilisation u = new NodeUtilisation(proc); // an empty tree: another platform
    u.sample();
    NodeUtilisation.Sample s = u.sample();
    assertTrue(Double.isNaN(s.cpuShare()));
    assertEquals(List.of(-1L, -1L, -1L, -1L, -1L), List.of(s.memoryUsedBytes(),
        s.diskReadBytes(), s.diskWrittenBytes(), s.netReceivedBytes(), s.netSentBytes()));
  }

  @Test
  void thisMachine_memoryAsMeminfoSays_countersOnlyGrow() throws Exception {
    Path real = Path.of("/proc");
    Assumptions.assumeTrue(Files.isReadable(real.resolve("meminfo"))
        && Files.isReadable(real.resolve("diskstats")), "Linux /proc");
    NodeUtilisation u = new NodeUtilisation();
    u.sample();
    Thread.sleep(100); // an interval between the two samples: the counters may only grow
    NodeUtilisation.Sample s = u.sample();
    long total = 0;
    long available = 0;
    for (String line : Files.readAllLines(real.resolve("meminfo"))) {
      String[] w = line.split("\\s+");
      if (w[0].equals("MemTotal:")) {
        total = Long.parseLong(w[1]) * 1024;
      } else if (w[0].equals("MemAvailable:")) {
        available = Long.parseLong(w[1]) * 1024;
      }
    }
    assertEquals(total - available, s.memoryUsedBytes(), 256L << 20,
        "within 256 MiB of what /proc/meminfo says a moment later");
    assertTrue(s.cpuShare() >= 0 && s.cpuShare() <= 1, "cpu " + s.cpuShare());
    assertTrue(s.diskReadBytes() >= 0 && s.diskWrittenBytes() >= 0, s.toString());
    assertTrue(s.netReceivedBytes() >= 0 && s.netSentBytes() >= 0, s.toString());
  }
}
