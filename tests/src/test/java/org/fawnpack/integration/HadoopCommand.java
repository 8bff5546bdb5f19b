package org.fawnpack.integration;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code hadoop jar fawn-jobs.jar ...} as the real command does: a separate JVM running
 * Hadoop's RunJar on the Hadoop client classpath, with a configuration directory in front.
 */
final class HadoopCommand {

  /** What the command printed and returned. */
  record Result(int exitCode, String stdout, String stderr) {}

  private HadoopCommand() {}

  static Result hadoopJar(Path confDir, String... args) throws IOException, InterruptedException {
    Path cpFile = Path.of(System.getProperty("fawn.hadoop.classpath-file",
        "../jobs/target/hadoop-client-classpath.txt"));
    String classpath = Files.readString(cpFile).trim();
    if (confDir != null) {
      classpath = confDir + File.pathSeparator + classpath;
    }
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx512m", "-cp", classpath, "org.apache.hadoop.util.RunJar", ClusterJobs.jobsJar()));
    command.addAll(List.of(args));
    Path stdout = Files.createTempFile("hadoop-jar", ".out");
    Path stderr = Files.createTempFile("hadoop-jar", ".err");
    try {
      Process process = new ProcessBuilder(command)
          .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
      if (!process.waitFor(10, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IOException("hadoop jar did not finish in 10 minutes: " + command);
      }
      return new Result(process.exitValue(), Files.readString(stdout, StandardCharsets.UTF_8),
          Files.readString(stderr, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(stdout);
      Files.deleteIfExists(stderr);
    }
  }
}
