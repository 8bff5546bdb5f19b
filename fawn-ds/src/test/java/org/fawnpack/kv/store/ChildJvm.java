package org.fawnpack.kv.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running a main class of the test classpath, for what one process cannot do to
 * itself: die by SIGKILL, or hold a file lock against this one. Its standard output is read
 * line by line on a daemon thread, so waiting for a line is bounded in time.
 */
final class ChildJvm implements AutoCloseable {

  private static final String EOF = "\u0000eof";

  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private ChildJvm(Process process) {
    this.process = process;
    Thread reader = new Thread(this::pump, "child-stdout-" + process.pid());
    reader.setDaemon(true);
    reader.start();
  }

  static ChildJvm start(Class<?> main, String... args) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-cp",
        System.getProperty("java.class.path"), main.getName()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    return new ChildJvm(builder.start());
  }

  private void pump() {
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
      String line;
      while ((line = out.readLine()) != null) {
        lines.add(line);
      }
    } catch (IOException e) {
      // The child died mid-line: what was read is all there is.
    } finally {
      lines.add(EOF);
    }
  }

  /** The next line, or null when the child's output ended or {@code millis} passed first. */
  String nextLine(long millis) throws InterruptedException {
    String line = lines.poll(millis, TimeUnit.MILLISECONDS);
    return line == null || line.equals(EOF) ? null : line;
  }

  /** Skips lines until one equals {@code wanted}; false when it does not come in time. */
  boolean awaitLine(String wanted, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (true) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      String line = left > 0 ? nextLine(left) : null;
      if (line == null) {
        return false;
      }
      if (line.equals(wanted)) {
        return true;
      }
    }
  }

  /** Exit code after the child ends by itself, or -1 when it is still running after the wait. */
  int waitFor(long millis) throws InterruptedException {
    return process.waitFor(millis, TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
  }

  /** SIGKILL, then waits for the process to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
