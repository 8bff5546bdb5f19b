package org.fawnpack.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kept cluster in a child JVM stops on SIGTERM (and SIGINT, handled the same way) with one
 * line per service and no stack trace, in bounded time.
 */
class CleanStopTest {

  @TempDir
  Path dir;

  @Test
  void sigterm_stopsTheKeptCluster_oneLinePerServiceNoStackTrace() throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (arg.startsWith("--add-opens")) {
        command.add(arg);
      }
    }
    command.addAll(List.of("-Xmx1g", "-Dlog4j.configuration=fawn-demo-log4j.properties",
        "-cp", System.getProperty("java.class.path"), KeptClusterMain.class.getName(),
        dir.resolve("cluster").toString()));
    Path output = dir.resolve("output.txt");
    Process child = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(output.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (!Files.readString(output).contains("ready") && System.nanoTime() < deadline
          && child.isAlive()) {
        Thread.sleep(200);
      }
      assertTrue(Files.readString(output).contains("ready"), Files.readString(output));

      child.destroy(); // SIGTERM
      assertTrue(child.waitFor(2, TimeUnit.MINUTES), "no stop within 2 minutes");
    } finally {
      child.destroyForcibly();
    }
    String printed = Files.readString(output);
    assertEquals(0, child.exitValue(), printed);
    String afterSignal = printed.substring(printed.indexOf("SIGTERM: stopping."));
    assertTrue(afterSignal.contains("1 NodeManagers stopped"), afterSignal);
    assertTrue(afterSignal.contains("ResourceManager and JobHistory server stopped"), afterSignal);
    assertTrue(afterSignal.contains("HDFS (NameNode, 1 DataNode(s)) stopped"), afterSignal);
    assertTrue(afterSignal.trim().endsWith("stopped"), afterSignal);
    assertFalse(afterSignal.contains("Exception") || afterSignal.contains("\tat "), afterSignal);
    assertEquals(5, afterSignal.trim().split("\n").length, afterSignal);
  }
}
