package org.fawnpack.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The no-framework reference: a plain multithreaded word count in one JVM over the same HDFS
 * files, one HashMap per thread merged at the end, words split as StringTokenizer splits them.
 */
final class SingleJvmWordCount {

  private SingleJvmWordCount() {}

  static Map<String, Long> count(FileSystem fs, Path dir, int threads) throws Exception {
    ConcurrentLinkedQueue<Path> files = new ConcurrentLinkedQueue<>();
    for (FileStatus status : fs.listStatus(dir)) {
      if (status.isFile()) {
        files.add(status.getPath());
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Map<String, Long>>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        parts.add(pool.submit(() -> countFiles(fs, files)));
      }
      Map<String, Long> total = new HashMap<>();
      for (Future<Map<String, Long>> part : parts) {
        part.get().forEach((word, n) -> total.merge(word, n, Long::sum));
      }
      return total;
    } finally {
      pool.shutdownNow();
    }
  }

  private static Map<String, Long> countFiles(FileSystem fs, ConcurrentLinkedQueue<Path> files)
      throws IOException {
    Map<String, Long> counts = new HashMap<>();
    Path file;
    while ((file = files.poll()) != null) {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(fs.open(file), StandardCharsets.UTF_8), 1 << 16)) {
        String line;
        while ((line = in.readLine()) != null) {
          StringTokenizer tokens = new StringTokenizer(line);
          while (tokens.hasMoreTokens()) {
            counts.merge(tokens.nextToken(), 1L, Long::sum);
          }
        }
      }
    }
    return counts;
  }
}
