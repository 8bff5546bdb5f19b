package org.fawnpack.minicluster;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes inputs shaped like the paper's: many small text files (words drawn from a Zipf-like
 * vocabulary, some of it non-ASCII) and many small Hadoop/YARN log files (log4j lines of mixed
 * levels and dates, stack traces, blank lines). Deterministic for a given seed.
 */
public final class SampleInputs {

  private static final String[] LEVELS = {"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"};
  /** Cumulative per-mille weights of LEVELS: mostly INFO, as in real daemon logs. */
  private static final int[] LEVEL_WEIGHTS = {5, 85, 885, 955, 995, 1000};
  private static final String[] CLASSES = {
      "org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdaterImpl",
      "org.apache.hadoop.mapred.MapTask", "org.apache.hadoop.hdfs.DFSClient",
      "org.apache.hadoop.mapreduce.v2.app.MRAppMaster", "org.apache.hadoop.ipc.Client"};

  /** Files written at once; HDFS file close latency, not CPU, limits a single writer. */
  private static final int PARALLEL_WRITERS = 4;

  private final String[] vocabulary;
  private final long seed;

  /** A vocabulary of {@code vocabularySize} distinct words built from the seed. */
  public SampleInputs(long seed, int vocabularySize) {
    this.seed = seed;
    this.vocabulary = vocabulary(new Random(seed), vocabularySize);
  }

  private static String[] vocabulary(Random random, int size) {
    String[] syllables = {"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "fe", "wa", "zu", "xi",
        "é", "ü", "ñ", "日", "本", "ø"};
    java.util.Set<String> words = new java.util.LinkedHashSet<>();
    while (words.size() < size) {
      int n = 1 + random.nextInt(4);
      StringBuilder word = new StringBuilder();
      for (int i = 0; i < n; i++) {
        // Non-ASCII syllables are rarer, so most words are plain ASCII.
        int pick = random.nextInt(100) < 92 ? random.nextInt(12) : 12 + random.nextInt(6);
        word.append(syllables[pick]);
      }
      if (random.nextInt(10) == 0) {
        word.append(random.nextBoolean() ? "," : ".");
      }
      words.add(word.toString());
    }
    return words.toArray(new String[0]);
  }

  /**
   * Writes {@code files} text files of about {@code bytesPerFile} each under {@code dir};
   * {@code progress} hears, from any writer thread, how many files are done minus one.
   */
  public void writeTextFiles(FileSystem fs, Path dir, int files, int bytesPerFile,
      IntConsumer progress) throws IOException {
    writeFiles(fs, dir, "text-%05d.txt", files, seed * 31, progress, (out, random) -> {
      int written = 0;
      while (written < bytesPerFile) {
        StringBuilder line = new StringBuilder();
        int words = 1 + random.nextInt(16);
        for (int w = 0; w < words; w++) {
          if (w > 0) {
            line.append(random.nextInt(20) == 0 ? "\t" : " ");
          }
          line.append(vocabulary[zipfIndex(random)]);
        }
        out.write(line.toString());
        out.write('\n');
        written += line.length() + 1;
      }
    });
  }

  /** Writes {@code files} log files of about {@code bytesPerFile} each under {@code dir}. */
  public void writeLogFiles(FileSystem fs, Path dir, int files, int bytesPerFile,
      IntConsumer progress) throws IOException {
    writeFiles(fs, dir, "hadoop-%05d.log", files, seed * 17, progress, (out, random) -> {
      int written = 0;
      int day = 1 + random.nextInt(5);
      long millisOfDay = random.nextInt(86_400_000);
      while (written < bytesPerFile) {
        millisOfDay += random.nextInt(2000);
        if (millisOfDay >= 86_400_000) {
          millisOfDay -= 86_400_000;
          day = day % 28 + 1;
        }
        String line = logLine(random, day, millisOfDay);
        out.write(line);
        written += line.length();
      }
    });
  }

  /** Writes the text of one file from its own seeded random source. */
  private interface FileBody {
    void write(BufferedWriter out, Random random) throws IOException;
  }

  /**
   * Writes file {@code f} with {@code new Random(seedBase + f)}, a few files at a time: closing
   * an HDFS file waits for the DataNode to report the block (hundreds of ms), which would
   * otherwise dominate writing many small files.
   */
  private static void writeFiles(FileSystem fs, Path dir, String nameFormat, int files,
      long seedBase, IntConsumer progress, FileBody body) throws IOException {
    ExecutorService writers = Executors.newFixedThreadPool(PARALLEL_WRITERS);
    AtomicInteger done = new AtomicInteger();
    try {
      List<Future<?>> pending = new ArrayList<>();
      for (int f = 0; f < files; f++) {
        Path file = new Path(dir, String.format(nameFormat, f));
        Random random = new Random(seedBase + f);
        pending.add(writers.submit(() -> {
          try (BufferedWriter out = writer(fs, file)) {
            body.write(out, random);
          }
          progress.accept(done.incrementAndGet() - 1);
          return null;
        }));
      }
      for (Future<?> write : pending) {
        write.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while writing sample files to " + dir);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io
          : new IOException("cannot write sample files to " + dir, e.getCause());
    } finally {
      writers.shutdownNow();
    }
  }

  private String logLine(Random random, int day, long millisOfDay) {
    String level = LEVELS[weighted(random)];
    String timestamp = String.format("2016-02-%02d %02d:%02d:%02d,%03d", day,
        millisOfDay / 3_600_000, millisOfDay / 60_000 % 60, millisOfDay / 1000 % 60,
        millisOfDay % 1000);
    // Daemon layout "%d %p %c: %m", container layout "%d %p [%t] %c: %m", sometimes "%-5p".
    String paddedLevel = random.nextInt(4) == 0 ? String.format("%-5s", level) : level;
    String thread = random.nextBoolean() ? "" : "[main] ";
    String clazz = CLASSES[random.nextInt(CLASSES.length)];
    StringBuilder line = new StringBuilder()
        .append(timestamp).append(' ').append(paddedLevel).append(' ').append(thread)
        .append(clazz).append(": ");
    int words = 3 + random.nextInt(10);
    for (int w = 0; w < words; w++) {
      line.append(vocabulary[zipfIndex(random)]).append(' ');
    }
    line.append('\n');
    if (level.equals("ERROR") && random.nextBoolean()) {
      line.append("java.io.IOException: Connection reset by peer\n")
          .append("\tat org.apache.hadoop.ipc.Client$Connection.receiveRpcResponse(Client.java:1189)\n")
          .append("\tat org.apache.hadoop.ipc.Client$Connection.run(Client.java:1086)\n");
    }
    if (random.nextInt(50) == 0) {
      line.append('\n');
    }
    return line.toString();
  }

  private static int weighted(Random random) {
    int r = random.nextInt(1000);
    for (int i = 0; i < LEVEL_WEIGHTS.length; i++) {
      if (r < LEVEL_WEIGHTS[i]) {
        return i;
      }
    }
    return LEVEL_WEIGHTS.length - 1;
  }

  /** Roughly Zipf(1): index k with probability ~ 1/(k+1), by inverse transform on a log scale. */
  private int zipfIndex(Random random) {
    double u = random.nextDouble();
    int k = (int) Math.floor(Math.pow(vocabulary.length + 1, u)) - 1;
    return Math.min(Math.max(k, 0), vocabulary.length - 1);
  }

  private static BufferedWriter writer(FileSystem fs, Path file) throws IOException {
    return new BufferedWriter(new OutputStreamWriter(fs.create(file, false),
        StandardCharsets.UTF_8), 1 << 16);
  }
}
