package org.fawnpack.benchmarks;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real child processes standing in for containers. Every one of them, with all its descendants,
 * is killed by {@link #close()}, and by a shutdown hook should the JVM end first (an exception
 * that escapes main, System.exit, Ctrl-C).
 */
final class ChildProcesses implements AutoCloseable {

  private final List<Process> processes = new ArrayList<>();
  private final Thread hook = new Thread(this::killAll, "kill-benchmark-children");
  private boolean closed;

  ChildProcesses() {
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Starts {@code sh -c script}, its output discarded. */
  Process shell(String script) throws IOException {
    return start(List.of("sh", "-c", script));
  }

  /**
   * Starts {@code sh -c script} with it and all its children bound to one CPU ({@code taskset
   * -c cpu}, which then execs the shell, so the pid is the shell's).
   */
  Process pinnedShell(int cpu, String script) throws IOException {
    return start(List.of("taskset", "-c", Integer.toString(cpu), "sh", "-c", script));
  }

  /** Whether {@code taskset} (util-linux) is on the PATH. */
  static boolean canPin() {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(File.pathSeparator)) {
      if (new File(dir, "taskset").canExecute()) {
        return true;
      }
    }
    return false;
  }

  private synchronized Process start(List<String> command) throws IOException {
    if (closed) {
      throw new IllegalStateException("closed");
    }
    Process process = new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .start();
    processes.add(process);
    return process;
  }

  /** Waits until the process has {@code count} live descendants (the shell forked them). */
  static void awaitDescendants(Process process, int count, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (process.descendants().count() < count) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException("child " + process.pid() + " did not start its "
            + count + " processes");
      }
      Thread.sleep(10);
    }
  }

  /**
   * CPU time used so far by the process and its live descendants, as the kernel reports it to
   * {@link ProcessHandle.Info#totalCpuDuration()}: the benchmark's independent check.
   */
  static Duration treeCpu(Process process) {
    Duration total = process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    for (ProcessHandle child : process.descendants().toList()) {
      total = total.plus(child.info().totalCpuDuration().orElse(Duration.ZERO));
    }
    return total;
  }

  @Override
  public void close() {
    killAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook runs (or ran) killAll
    }
  }

  private synchronized void killAll() {
    if (closed) {
      return;
    }
    closed = true;
    for (Process process : processes) {
      // Descendants first: a shell killed first would leave its children to init.
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
    }
    for (Process process : processes) {
      try {
        process.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
