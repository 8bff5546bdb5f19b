package org.fawnpack.realdaemons;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started the way Hadoop's scripts start one: {@code java -cp <conf>:<jars> Main args}
 * with HADOOP_CONF_DIR and the HADOOP_*_HOME variables of the install in its environment and its
 * output in a log file. Daemons run until {@link #stop}; commands are waited for, bounded.
 */
final class JavaProcess {
  /** The environment Hadoop's bin scripts export (hadoop-functions.sh) for an install. */
  static Map<String, String> hadoopEnvironment(HadoopLayout layout, Path confDir) {
    String home = layout.home().toString();
    return Map.of("JAVA_HOME", System.getProperty("java.home"), "HADOOP_HOME", home,
        "HADOOP_COMMON_HOME", home, "HADOOP_HDFS_HOME", home, "HADOOP_YARN_HOME", home,
        "HADOOP_MAPRED_HOME", home, "HADOOP_CONF_DIR", confDir.toString());
  }

  /** What a finished command printed and returned. */
  record Result(int exitCode, String output) {}

  private final String name;
  private final Process process;
  private final Path log;

  private JavaProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static JavaProcess start(String name, HadoopLayout layout, Path confDir, Path logDir,
      String heap, String main, String... args) throws IOException {
    return start(name, layout, confDir, logDir, heap, main, List.of(args), null);
  }

  /** As above, with {@code extraClasses} (or null) after the install's class path. */
  static JavaProcess start(String name, HadoopLayout layout, Path confDir, Path logDir,
      String heap, String main, List<String> args, Path extraClasses) throws IOException {
    String classpath = layout.classpath(confDir) + (extraClasses == null ? ""
        : java.io.File.pathSeparator + extraClasses);
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx" + heap,
        "-Dlog4j.configuration=" + JavaProcess.class.getResource("/daemon-log4j.properties"),
        "-Dhadoop.log.dir=" + logDir, "-Dyarn.log.dir=" + logDir, "-cp", classpath, main));
    command.addAll(args);
    Files.createDirectories(logDir);
    Path log = logDir.resolve(name + ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(hadoopEnvironment(layout, confDir));
    return new JavaProcess(name, builder.start(), log);
  }

  /** Something checked every second while a command runs; it throws to give up. */
  interface Watch {
    void check() throws IOException;
  }

  /** Runs a command to its end, at most {@code seconds}. */
  static Result run(String name, HadoopLayout layout, Path confDir, Path logDir, long seconds,
      String main, String... args) throws IOException, InterruptedException {
    return run(name, layout, confDir, logDir, seconds, () -> { }, main, args);
  }

  /**
   * Runs a command to its end, at most {@code seconds}, calling {@code watch} every second (a
   * command against a daemon that died would otherwise retry for minutes).
   */
  static Result run(String name, HadoopLayout layout, Path confDir, Path logDir, long seconds,
      Watch watch, String main, String... args) throws IOException, InterruptedException {
    JavaProcess p = start(name, layout, confDir, logDir, "512m", main, args);
    try {
      for (long waited = 0; !p.process.waitFor(1, TimeUnit.SECONDS); waited++) {
        if (waited >= seconds) {
          throw new IOException(name + " did not finish in " + seconds + " s; its output: "
              + p.log);
        }
        watch.check();
      }
    } finally {
      if (p.process.isAlive()) {
        p.stop();
      }
    }
    return new Result(p.process.exitValue(), p.output());
  }

  String name() {
    return name;
  }

  /** Waits for the end, at most {@code seconds}; true when it ended. */
  boolean waitFor(long seconds) throws InterruptedException {
    return process.waitFor(seconds, TimeUnit.SECONDS);
  }

  int exitCode() {
    return process.exitValue();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  /** The processes this one started (a NodeManager's containers), while it runs. */
  List<ProcessHandle> descendants() {
    return process.descendants().toList();
  }

  String output() throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  /** The last lines of the log, for failure messages. */
  String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  /** SIGTERM, then SIGKILL after 30 s. */
  void stop() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** SIGKILL without waiting. */
  void destroyNow() {
    process.destroyForcibly();
  }

  /** SIGKILL at once, as a crash would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
