package org.fawnpack.energy.cpu;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the node's CPU, memory, disks and network did since the last sample, from {@code /proc}
 * (stat, meminfo, diskstats, net/dev): what the seeds put beside power to diagnose a wimpy node
 * (CPU-bound, swapping, waiting on its one disk or its USB network). A figure this platform does
 * not have is -1 (NaN for the CPU share), never a guess; the first sample only sets the
 * counters' baselines. Not thread-safe: the sampler's thread owns it.
 */
public final class NodeUtilisation {

  /**
   * One interval: the CPU busy share (0 to 1), memory in use (total less available) and the
   * bytes read and written by the whole disks and received and sent on every interface but
   * loopback in the interval.
   */
  public record Sample(double cpuShare, long memoryUsedBytes, long diskReadBytes,
      long diskWrittenBytes, long netReceivedBytes, long netSentBytes) {
    public static final Sample UNKNOWN = new Sample(Double.NaN, -1, -1, -1, -1, -1);
  }

  private static final int SECTOR_BYTES = 512; // diskstats counts 512-byte sectors always

  private final Path proc;
  private final ProcStatCpuUtilisation cpu;
  private long[] lastDisk; // read, written bytes; null before the first sample
  private long[] lastNet;

  /** Reads {@code /proc}. */
  public NodeUtilisation() {
    this(Path.of("/proc"));
  }

  /** Reads {@code <procRoot>/...}; tests pass a tree of their own. */
  public NodeUtilisation(Path procRoot) {
    this.proc = procRoot;
    this.cpu = new ProcStatCpuUtilisation(procRoot);
  }

  /** The interval since the last call. */
  public Sample sample() {
    double cpuShare;
    try {
      cpuShare = cpu.sinceLastCall();
    } catch (IOException | RuntimeException e) {
      cpuShare = Double.NaN;
    }
    long[] disk = readOrNull(this::diskBytes);
    long[] net = readOrNull(this::netBytes);
    long memory = readMemoryUsed();
    Sample s = new Sample(cpuShare, memory, delta(disk, lastDisk, 0), delta(disk, lastDisk, 1),
        delta(net, lastNet, 0), delta(net, lastNet, 1));
    lastDisk = disk;
    lastNet = net;
    return s;
  }

  private static long delta(long[] now, long[] before, int i) {
    return now == null || before == null || now[i] < before[i] ? -1 : now[i] - before[i];
  }

  @FunctionalInterface
  private interface Reader {
    long[] read() throws IOException;
  }

  private static long[] readOrNull(Reader reader) {
    try {
      return reader.read();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** MemTotal less MemAvailable, bytes; -1 without them (kernels before 3.14 lack the latter). */
  private long readMemoryUsed() {
    long total = -1;
    long available = -1;
    try (BufferedReader in = Files.newBufferedReader(proc.resolve("meminfo"),
        StandardCharsets.US_ASCII)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("MemTotal:")) {
          total = kibibytes(line);
        } else if (line.startsWith("MemAvailable:")) {
          available = kibibytes(line);
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return total < 0 || available < 0 ? -1 : (total - available) * 1024;
  }

  private static long kibibytes(String line) {
    String[] words = line.trim().split("\\s+");
    return words.length >= 2 ? Long.parseLong(words[1]) : -1;
  }

  /**
   * Sectors read and written by the whole disks, as bytes: a device counts unless another
   * listed device's name begins its own (sda1 is sda's partition, mmcblk0p1 mmcblk0's), and
   * loop, RAM, device-mapper, RAID and optical devices never do (their I/O is a disk's too).
   */
  private long[] diskBytes() throws IOException {
    List<String[]> rows = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(proc.resolve("diskstats"),
          StandardCharsets.US_ASCII)) {
        String[] f = line.trim().split("\\s+");
        if (f.length >= 10) {
          rows.add(f);
        }
      }
    } catch (NoSuchFileException e) {
      return null;
    }
    List<String> names = rows.stream().map(f -> f[2]).toList();
    long read = 0;
    long written = 0;
    for (String[] f : rows) {
      String name = f[2];
      if (name.matches("(loop|ram|zram|dm-|md|sr).*") || names.stream().anyMatch(
          other -> !other.equals(name) && name.startsWith(other)
              && name.substring(other.length()).matches("p?[0-9]+"))) {
        continue;
      }
      read += Long.parseLong(f[5]) * SECTOR_BYTES; // sectors read
      written += Long.parseLong(f[9]) * SECTOR_BYTES; // sectors written
    }
    return new long[] {read, written};
  }

  /** Bytes received and sent on every interface but loopback. */
  private long[] netBytes() throws IOException {
    long received = 0;
    long sent = 0;
    List<String> lines;
    try {
      lines = Files.readAllLines(proc.resolve("net").resolve("dev"), StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      return null;
    }
    for (String line : lines) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue; // the two header lines
      }
      String name = line.substring(0, colon).trim();
      String[] f = line.substring(colon + 1).trim().split("\\s+");
      if (name.equals("lo") || f.length < 9) {
        continue;
      }
      received += Long.parseLong(f[0]);
      sent += Long.parseLong(f[8]);
    }
    return new long[] {received, sent};
  }
}
