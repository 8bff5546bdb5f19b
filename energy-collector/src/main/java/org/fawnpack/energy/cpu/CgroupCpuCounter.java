package org.fawnpack.energy.cpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The CPU counter of a container's own cgroup. Preferred over summing a process tree because the
 * kernel keeps counting the time of children that exited, even when nobody waited for them.
 * Located once per container from {@code /proc/<pid>/cgroup}, and only used when the cgroup's path
 * names the container (as YARN's cgroups handlers make it), so a shared system cgroup is never
 * taken for the container's.
 */
final class CgroupCpuCounter {

  /** Which file format the counter has. */
  enum Kind {
    /** cgroup v2 {@code cpu.stat}, line {@code usage_usec N}. */
    V2_CPU_STAT,
    /** cgroup v1 {@code cpuacct.usage}, one number in nanoseconds. */
    V1_CPUACCT_USAGE
  }

  private static final byte[] USAGE_USEC = "usage_usec".getBytes(StandardCharsets.US_ASCII);

  private final Path file;
  private final String fileName;
  private final Kind kind;

  CgroupCpuCounter(Path file, Kind kind) {
    this.file = file;
    this.fileName = file.toString();
    this.kind = kind;
  }

  Path file() {
    return file;
  }

  Kind kind() {
    return kind;
  }

  /**
   * The counter of the container whose root process is {@code pid}, if that process sits in a
   * cgroup whose path contains {@code containerId} and the counter file can be read.
   */
  static Optional<CgroupCpuCounter> locate(Path procRoot, Path cgroupRoot, int pid,
      String containerId, SmallFileReader reader) throws IOException {
    Path membership = procRoot.resolve(Integer.toString(pid)).resolve("cgroup");
    List<String> lines;
    try {
      lines = Files.readAllLines(membership, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    for (CgroupCpuCounter candidate : candidates(lines, cgroupRoot, containerId)) {
      if (candidate.readNanos(reader) >= 0) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * Counter files to try, v2 first. Lines are {@code hierarchy-id:controllers:path}; v2 is the
   * line with id 0 and no controllers, mounted at the root (pure v2) or at {@code unified/}
   * (hybrid). v1 cpuacct may be mounted alone or co-mounted with cpu, under either name.
   */
  static List<CgroupCpuCounter> candidates(List<String> lines, Path cgroupRoot,
      String containerId) {
    Set<Path> v2 = new LinkedHashSet<>();
    Set<Path> v1 = new LinkedHashSet<>();
    for (String line : lines) {
      int first = line.indexOf(':');
      int second = first < 0 ? -1 : line.indexOf(':', first + 1);
      if (second < 0) {
        continue;
      }
      String controllers = line.substring(first + 1, second);
      String path = line.substring(second + 1).trim();
      if (!path.contains(containerId)) {
        continue;
      }
      String relative = path.startsWith("/") ? path.substring(1) : path;
      if (controllers.isEmpty() && line.substring(0, first).equals("0")) {
        v2.add(cgroupRoot.resolve(relative).resolve("cpu.stat"));
        v2.add(cgroupRoot.resolve("unified").resolve(relative).resolve("cpu.stat"));
      } else if (List.of(controllers.split(",")).contains("cpuacct")) {
        for (String mount : List.of(controllers, "cpu,cpuacct", "cpuacct,cpu", "cpuacct")) {
          v1.add(cgroupRoot.resolve(mount).resolve(relative).resolve("cpuacct.usage"));
        }
      }
    }
    List<CgroupCpuCounter> result = new ArrayList<>();
    v2.forEach(p -> result.add(new CgroupCpuCounter(p, Kind.V2_CPU_STAT)));
    v1.forEach(p -> result.add(new CgroupCpuCounter(p, Kind.V1_CPUACCT_USAGE)));
    return result;
  }

  /** Cumulative CPU of the cgroup in nanoseconds; -1 if the file is gone or unparsable. */
  long readNanos(SmallFileReader reader) throws IOException {
    int length = reader.read(fileName);
    if (length < 0) {
      return -1;
    }
    byte[] bytes = reader.buffer();
    if (kind == Kind.V1_CPUACCT_USAGE) {
      return SmallFileReader.parseDecimal(bytes, 0, length);
    }
    for (int lineStart = 0; lineStart < length; ) {
      int lineEnd = lineStart;
      while (lineEnd < length && bytes[lineEnd] != '\n') {
        lineEnd++;
      }
      if (startsWith(bytes, lineStart, lineEnd, USAGE_USEC)
          && SmallFileReader.isSpace(bytes[lineStart + USAGE_USEC.length])) {
        long usec = SmallFileReader.parseDecimal(bytes, lineStart + USAGE_USEC.length, lineEnd);
        return usec < 0 ? -1 : usec * 1000;
      }
      lineStart = lineEnd + 1;
    }
    return -1;
  }

  private static boolean startsWith(byte[] bytes, int from, int to, byte[] prefix) {
    if (to - from <= prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[from + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return fileName;
  }
}
