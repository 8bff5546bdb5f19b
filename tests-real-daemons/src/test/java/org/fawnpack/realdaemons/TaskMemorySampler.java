package org.fawnpack.realdaemons;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Samples the memory of the task and ApplicationMaster JVMs the NodeManagers start (every
 * 200 ms, from {@code /proc}): each JVM's peak resident set ({@code VmHWM}) against its
 * {@code -Xmx}, and the peak resident set of its container's process tree (the JVM and the
 * shells YARN starts it from), which is what the NodeManager's physical-memory check counts.
 */
final class TaskMemorySampler implements AutoCloseable {
  private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)m");
  private static final Pattern CONTAINER = Pattern.compile("(container_\\d+_\\d+_\\d+_\\d+)");

  /** One JVM's peaks, in kB. */
  record Peak(String kind, String container, long xmxMb, long jvmPeakKb, long treePeakKb) {
    /** What the JVM holds besides its heap, when the heap was all touched (AlwaysPreTouch). */
    long nonHeapMb() {
      return jvmPeakKb / 1024 - xmxMb;
    }
  }

  private final String marker;
  private final Map<Long, Peak> peaks = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean running = true;

  /** Samples the JVMs whose command line contains {@code marker} (the cluster's directory). */
  TaskMemorySampler(String marker) {
    this.marker = marker;
    this.thread = new Thread(this::loop, "task-memory-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      ProcessHandle.allProcesses().forEach(this::sample);
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void sample(ProcessHandle p) {
    if (!p.info().command().orElse("").endsWith("/java")) {
      return; // the shell whose command line names the JVM it starts
    }
    String cmd = p.info().commandLine().orElse("");
    String kind = cmd.contains("org.apache.hadoop.mapred.YarnChild") ? "task"
        : cmd.contains("org.apache.hadoop.mapreduce.v2.app.MRAppMaster") ? "am" : null;
    if (kind == null || !cmd.contains(marker)) {
      return;
    }
    Matcher xmx = XMX.matcher(cmd);
    long heap = -1;
    while (xmx.find()) {
      heap = Long.parseLong(xmx.group(1)); // the last -Xmx wins, as in the JVM
    }
    Matcher container = CONTAINER.matcher(cmd);
    String id = container.find() ? container.group(1) : "?";
    long jvmPeak = status(p.pid(), "VmHWM");
    long tree = status(p.pid(), "VmRSS");
    for (ProcessHandle parent = p.parent().orElse(null); parent != null
        && parent.info().command().orElse("").endsWith("bash");
        parent = parent.parent().orElse(null)) {
      tree += status(parent.pid(), "VmRSS");
    }
    long treeNow = tree;
    long heapMb = heap;
    peaks.merge(p.pid(), new Peak(kind, id, heapMb, jvmPeak, treeNow), (a, b) -> new Peak(kind,
        id, heapMb, Math.max(a.jvmPeakKb(), b.jvmPeakKb()), Math.max(a.treePeakKb(),
        b.treePeakKb())));
  }

  private static long status(long pid, String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith(field + ":")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the process ended between the listing and the read
    }
    return 0;
  }

  List<Peak> peaks() {
    return new ArrayList<>(peaks.values());
  }

  void clear() {
    peaks.clear();
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
