package org.fawnpack.kv.cluster;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A back-end or front-end as a child JVM ({@code fawn kv backend|frontend}, on this test's
 * class path), so a fault test can kill it with SIGKILL as a crash would: no shutdown hook, no
 * flush, sockets reset by the kernel. Its output goes to {@code <id>.log} in its directory
 * (appended: a restarted node adds to its log).
 */
final class NodeProcess implements Closeable {
  private final String id;
  private final Process process;
  private final Path log;

  private NodeProcess(String id, Process process, Path log) {
    this.id = id;
    this.process = process;
    this.log = log;
  }

  /** Starts back-end {@code id} on {@code host} (any port) with {@code settings} as -D. */
  static NodeProcess backend(String id, String host, Path dir, Map<String, String> settings)
      throws IOException {
    return backend(id, host, dir, settings, List.of());
  }

  /** A back-end with more command-line options ({@code --port}, say). */
  static NodeProcess backend(String id, String host, Path dir, Map<String, String> settings,
      List<String> options) throws IOException {
    List<String> args = new java.util.ArrayList<>(List.of("backend", "--id", id, "--data",
        dir.resolve("data").toString(), "--host", host));
    args.addAll(options);
    return start(id, dir, settings, args);
  }

  /** Starts front-end {@code name} with its coordinator on {@code host:port}. */
  static NodeProcess frontEnd(String name, String host, int port, Path dir,
      Map<String, String> settings) throws IOException {
    return start(name, dir, settings, List.of("frontend", "--name", name, "--host", host,
        "--port", Integer.toString(port)));
  }

  private static NodeProcess start(String id, Path dir, Map<String, String> settings,
      List<String> commandArgs) throws IOException {
    Files.createDirectories(dir);
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        "org.fawnpack.kv.cli.KvCommand"));
    settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.addAll(commandArgs);
    Path log = dir.resolve(id + ".log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    return new NodeProcess(id, process, log);
  }

  /** Runs {@code fawn kv} with {@code args} (a command such as leave) in a child JVM. */
  static NodeProcess command(String name, Path dir, Map<String, String> settings,
      List<String> args) throws IOException {
    return start(name, dir, settings, args);
  }

  /** Waits at most {@code seconds} for the process to end; its exit code. */
  int awaitExit(int seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      throw new AssertionError(id + " still runs after " + seconds + " s; see " + logFile());
    }
    return process.exitValue();
  }

  String id() {
    return id;
  }

  /** SIGKILL, and waits (at most 10 s) until the process is gone. */
  void kill9() throws InterruptedException {
    process.destroyForcibly(); // SIGKILL on Linux
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException(id + " still runs 10 s after SIGKILL");
    }
  }

  /** SIGTERM: the node closes cleanly (its shutdown hook); waits at most 30 s. */
  void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException(id + " still runs 30 s after SIGTERM; log: " + log);
    }
  }

  /**
   * Freezes the process (SIGSTOP) or lets it go on (SIGCONT): to the cluster a frozen node is a
   * node cut off by the network, and one let go after its session expired is one whose link
   * came back.
   */
  void signal(String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
        .inheritIO().start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Where its output is, for a failure message. */
  String logFile() {
    return log.toString();
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
