package org.fawnpack.energy.cpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a fake {@code /proc}, cgroup tree and NodeManager local dirs under a test directory. */
final class FakeProc {
  final Path proc;

  FakeProc(Path proc) {
    this.proc = proc;
    mkdirs(proc);
  }

  /**
   * A {@code /proc/<pid>/stat} line with the given comm (may hold spaces and parentheses) and CPU
   * times in ticks. Field 18 (priority) is negative as for real-time tasks, field 8 (tpgid) -1.
   */
  FakeProc process(int pid, String comm, int ppid, long utime, long stime, long cutime,
      long cstime, long startTime) {
    String line = pid + " (" + comm + ") S " + ppid + " " + pid + " " + pid + " 0 -1 4194560 "
        + "120 0 3 0 " + utime + " " + stime + " " + cutime + " " + cstime + " -2 0 1 0 "
        + startTime + " 2277376 201 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
    write(proc.resolve(Integer.toString(pid)).resolve("stat"), line);
    return this;
  }

  /** A process started at tick 1000 with only user time. */
  FakeProc process(int pid, String comm, int ppid, long utime) {
    return process(pid, comm, ppid, utime, 0, 0, 0, 1000);
  }

  FakeProc cgroupFile(int pid, String content) {
    write(proc.resolve(Integer.toString(pid)).resolve("cgroup"), content);
    return this;
  }

  void vanish(int pid) {
    deleteTree(proc.resolve(Integer.toString(pid)));
  }

  static Path pidFile(Path localDir, ContainerProcessKey key) {
    return localDir.resolve("nmPrivate").resolve(key.applicationId())
        .resolve(key.containerId()).resolve(key.containerId() + ".pid");
  }

  static void writePidFile(Path localDir, ContainerProcessKey key, long pid) {
    write(pidFile(localDir, key), pid + "\n");
  }

  static void write(Path file, String content) {
    try {
      mkdirs(file.getParent());
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void mkdirs(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void deleteTree(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
