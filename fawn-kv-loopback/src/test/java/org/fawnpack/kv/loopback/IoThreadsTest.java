package org.fawnpack.kv.loopback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.config.KvKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fawn.kv.io-threads} reaches a back-end: its JVM runs that many event-loop threads,
 * counted by the operating system ({@code /proc/<pid>/task/<tid>/comm}), not by the code, and
 * serves puts and gets on them.
 */
class IoThreadsTest {
  @TempDir
  Path dir;

  private static long eventLoopThreads(ProcessHandle process) throws IOException {
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + process.pid() + "/task"))) {
      return tasks.filter(task -> {
        try {
          return Files.readString(task.resolve("comm")).startsWith("fawn-kv-io");
        } catch (IOException e) {
          return false; // the thread ended while we looked
        }
      }).count();
    }
  }

  @Test
  void backend_givenOneIoThread_servesOnOneEventLoop() throws Exception {
    try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("kv"), 3, 1,
        Map.of(KvKeys.IO_THREADS.name(), "1"))) {
      try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEndAddresses(),
          Duration.ofSeconds(30), cluster.secret())) {
        for (int i = 0; i < 50; i++) { // connections on every back-end: loops start lazily
          byte[] key = ("io-" + i).getBytes(StandardCharsets.UTF_8);
          kv.put(key, key);
          assertArrayEquals(key, kv.get(key));
        }
      }
      for (Map.Entry<String, ProcessHandle> backend : cluster.backendProcesses().entrySet()) {
        assertEquals(1, eventLoopThreads(backend.getValue()),
            "event-loop threads of back-end " + backend.getKey());
      }
    }
  }
}
