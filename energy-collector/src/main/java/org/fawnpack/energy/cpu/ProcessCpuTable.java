package org.fawnpack.energy.cpu;

import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One snapshot of every process's CPU ticks and parent, from one listing of {@code /proc} and one
 * read of each {@code /proc/<pid>/stat}. Built once per sampling call and shared by all
 * containers, so the cost does not grow with the number of containers.
 */
final class ProcessCpuTable {
  private final ProcessCpuStat[] processes;
  private final Map<Integer, Integer> indexByPid;
  // The tree as first-child / next-sibling links (indexes into processes; -1 = none).
  private final int[] firstChild;
  private final int[] nextSibling;

  private ProcessCpuTable(ProcessCpuStat[] processes, int count) {
    this.processes = processes;
    this.indexByPid = new HashMap<>(count * 2);
    this.firstChild = new int[count];
    this.nextSibling = new int[count];
    for (int i = 0; i < count; i++) {
      indexByPid.put(processes[i].pid(), i);
      firstChild[i] = -1;
      nextSibling[i] = -1;
    }
    for (int i = 0; i < count; i++) {
      Integer parent = indexByPid.get(processes[i].ppid());
      if (parent != null && parent != i) {
        nextSibling[i] = firstChild[parent];
        firstChild[parent] = i;
      }
    }
  }

  /**
   * Scans {@code procRoot}. A process that exits between the listing and the read of its stat is
   * left out, as if it had exited just before.
   *
   * @throws IOException if {@code procRoot} cannot be listed at all
   */
  static ProcessCpuTable scan(String procRoot, SmallFileReader reader) throws IOException {
    String[] names = new File(procRoot).list();
    if (names == null) {
      throw new IOException("cannot list " + procRoot);
    }
    ProcessCpuStat[] found = new ProcessCpuStat[names.length];
    int count = 0;
    StringBuilder path = new StringBuilder(procRoot.length() + 24).append(procRoot).append('/');
    int prefix = path.length();
    for (String name : names) {
      if (name.isEmpty() || name.charAt(0) < '0' || name.charAt(0) > '9') {
        continue; // not a process: /proc/cpuinfo, /proc/self, ...
      }
      path.setLength(prefix);
      path.append(name).append("/stat");
      int length;
      try {
        length = reader.read(path.toString());
      } catch (IOException e) {
        continue; // ESRCH: exited while we read it
      }
      ProcessCpuStat stat = length > 0 ? ProcessCpuStat.parse(reader.buffer(), length) : null;
      if (stat != null) {
        found[count++] = stat;
      }
    }
    return new ProcessCpuTable(found, count);
  }

  int size() {
    return firstChild.length;
  }

  /** Whether this pid is alive and is still the process that started at {@code startTime}. */
  boolean isAlive(int pid, long startTime) {
    Integer index = indexByPid.get(pid);
    return index != null && processes[index].startTime() == startTime;
  }

  /** The process's start time, or -1 if it is not in the snapshot. */
  long startTime(int pid) {
    Integer index = indexByPid.get(pid);
    return index == null ? -1 : processes[index].startTime();
  }

  /** CPU ticks of {@code pid} and all its live descendants, or -1 if the pid is not present. */
  long treeTicks(int pid) {
    Integer root = indexByPid.get(pid);
    if (root == null) {
      return -1;
    }
    long ticks = 0;
    int[] stack = new int[16];
    int depth = 0;
    stack[depth++] = root;
    // The snapshot is not atomic, so a recycled pid could in theory link a cycle: visit each
    // process at most once by bounding the walk to the table size.
    int budget = size();
    while (depth > 0 && budget-- > 0) {
      int index = stack[--depth];
      ticks += processes[index].cpuTicks();
      for (int child = firstChild[index]; child >= 0; child = nextSibling[child]) {
        if (depth == stack.length) {
          stack = Arrays.copyOf(stack, depth * 2);
        }
        stack[depth++] = child;
      }
    }
    return ticks;
  }
}
