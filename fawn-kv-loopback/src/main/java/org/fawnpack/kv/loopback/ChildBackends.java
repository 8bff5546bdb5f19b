package org.fawnpack.kv.loopback;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.cli.KvCommand;

/**
 * Back-ends as child JVMs ({@code fawn kv backend} on this JVM's class path), so a demo can
 * kill one with SIGKILL as a power cut would. Each logs to {@code <dir>/<id>.log}; closing
 * stops the rest with SIGTERM (a clean stop), then SIGKILL after 10 s.
 */
final class ChildBackends implements Closeable {
  private static final long STOP_SECONDS = 10;

  /**
   * JVM options for back-ends that live a minute (a demo): C1 only. On a 2-core machine five
   * fresh back-ends spent more CPU in C2's compiler threads than in their data path during
   * the demo's load (JFR); with C1 only they load its 20,000 keys 1.6× as fast (2× with the
   * demo's own JVM on C1 too), and at steady state (400,000 keys) cost 5–13 % more
   * (docs/benchmarks.md, "The demo's load, the JIT and the forces").
   */
  static final List<String> SHORT_LIVED_JVM = List.of("-XX:TieredStopAtLevel=1",
      "-XX:+UseSerialGC");

  private final Path dir;
  private final List<String> jvmOptions;
  private final List<String> settings;
  private final Map<String, Process> running = new LinkedHashMap<>();

  /**
   * {@code jvmOptions}: given to every back-end's JVM (after the heap size); {@code settings}:
   * the {@code -Dfawn.kv.*} arguments every back-end gets.
   */
  ChildBackends(Path dir, List<String> jvmOptions, List<String> settings) {
    this.dir = dir;
    this.jvmOptions = List.copyOf(jvmOptions);
    this.settings = List.copyOf(settings);
  }

  /** The data directory of back-end {@code id}. */
  Path dataOf(String id) {
    return dir.resolve(id);
  }

  /** Starts back-end {@code id} on {@code host} (any port), its files under the directory. */
  void start(String id, String host) throws IOException {
    if (running.containsKey(id)) {
      throw new IllegalArgumentException("back-end " + id + " runs already");
    }
    Files.createDirectories(dir);
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-Dorg.slf4j.simpleLogger.log.org.apache.zookeeper=warn",
        "-Dorg.slf4j.simpleLogger.log.org.apache.curator=warn",
        "-cp", System.getProperty("java.class.path"), KvCommand.class.getName()));
    command.addAll(settings);
    command.addAll(List.of("backend", "--id", id, "--host", host,
        "--data", dir.resolve(id).toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(dir.resolve(id + ".log").toFile()).start();
    running.put(id, process);
  }

  /** The back-ends running now (for their CPU time, say), by id. */
  Map<String, ProcessHandle> processes() {
    Map<String, ProcessHandle> handles = new LinkedHashMap<>();
    running.forEach((id, p) -> handles.put(id, p.toHandle()));
    return handles;
  }

  /** SIGKILL: no clean stop, nothing flushed that was not already. */
  void kill9(String id) throws InterruptedException {
    Process process = running.remove(id);
    if (process == null) {
      throw new IllegalArgumentException("no back-end " + id + " runs");
    }
    process.destroyForcibly();
    process.waitFor(STOP_SECONDS, TimeUnit.SECONDS);
  }

  /** Where back-end {@code id} logs. */
  Path logOf(String id) {
    return dir.resolve(id + ".log");
  }

  /** Ids of back-ends whose process has ended by itself (a failed start, say). */
  List<String> exited() {
    return running.entrySet().stream().filter(e -> !e.getValue().isAlive())
        .map(Map.Entry::getKey).toList();
  }

  @Override
  public void close() {
    running.values().forEach(Process::destroy);
    for (Process p : running.values()) {
      try {
        if (!p.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        p.destroyForcibly();
      }
    }
    running.clear();
  }
}
