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
 * A back-end as a child JVM ({@code fawn kv backend}, on this test's class path), so a fault
 * test can kill it with SIGKILL as a crash would: no shutdown hook, no flush, sockets reset by
 * the kernel. Its output goes to {@code <id>.log} beside its data.
 */
final class BackendProcess implements Closeable {
  private final String id;
  private final Process process;
  private final Path log;

  private BackendProcess(String id, Process process, Path log) {
    this.id = id;
    this.process = process;
    this.log = log;
  }

  /** Starts back-end {@code id} on {@code host} (any port) with {@code settings} as -D. */
  static BackendProcess start(String id, String host, Path dir, Map<String, String> settings)
      throws IOException {
    Files.createDirectories(dir);
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx96m",
        "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        "org.fawnpack.kv.cli.KvCommand"));
    settings.forEach((key, value) -> command.add("-D" + key + "=" + value));
    command.addAll(List.of("backend", "--id", id, "--data", dir.resolve("data").toString(),
        "--host", host));
    Path log = dir.resolve(id + ".log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    return new BackendProcess(id, process, log);
  }

  String id() {
    return id;
  }

  /** SIGKILL, and waits (at most 10 s) until the process is gone. */
  void kill9() throws InterruptedException {
    process.destroyForcibly(); // SIGKILL on Linux
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("back-end " + id + " still runs 10 s after SIGKILL");
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
