package org.fawnpack.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ./fawn bench-kv [entries] [--gets N] [--dir D]}: FAWN-DS beside Berkeley DB Java
 * Edition and RocksDB in one run on one machine, each engine in its own JVM (same heap, same
 * flags) so that memory is measured per engine: the paper's load (20-byte random keys,
 * 200-byte values, no sync per write, one sync at the end), uniform random gets with 1 and 2
 * threads (10 % misses), heap and resident memory per key after the load, FAWN-DS's log reads
 * per get and fragment false positives, FAWN-DS split and merge against a plain copy of its
 * file, and a plain 1 MiB-buffered sequential write of the load's bytes as the device limit.
 * Writes the "fawn-ds" section of docs/benchmarks.md.
 */
public final class FawnDsBenchmark {

  static final String BEGIN = "<!-- BEGIN fawn-ds (written by FawnDsBenchmark) -->";
  static final String END = "<!-- END fawn-ds -->";
  private static final List<String> ENGINES =
      List.of(FawnDsEngine.NAME, RocksDbEngine.NAME, BdbJeEngine.NAME);
  private static final String CHILD_HEAP = "-Xmx3g";
  private static final int VALUE_BYTES = 200;
  private static final long SEED = 20090611L;
  /** The device limit is the best of a few plain writes: the first often pays page reclaim. */
  private static final int SEQUENTIAL_RUNS = 3;

  private FawnDsBenchmark() {}

  public static void main(String[] args) throws Exception {
    long entries = 7_000_000;
    long gets = -1;
    Path dir = Path.of("target/bench-kv");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--gets" -> gets = Long.parseLong(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "-h", "--help" -> usage(0);
        default -> {
          if (args[i].startsWith("-")) {
            usage(2);
          }
          entries = Long.parseLong(args[i].replace("_", ""));
        }
      }
    }
    if (entries < 1000) {
      System.err.println("entries must be at least 1000, was " + entries);
      usage(2);
    }
    if (gets < 0) {
      gets = Math.min(entries, 2_000_000);
    }
    String command = ("./fawn bench-kv " + String.join(" ", args)).trim();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    KvWorkload workload = new KvWorkload(entries, VALUE_BYTES, SEED);
    FileTrees.delete(dir);
    Files.createDirectories(dir);
    List<Double> seqRuns = new ArrayList<>();
    for (int i = 0; i < SEQUENTIAL_RUNS; i++) {
      seqRuns.add(sequentialWriteMbps(workload, dir.resolve("sequential.bin")));
    }
    double seqMbps = seqRuns.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    System.out.printf(Locale.ROOT, "plain sequential write: %.0f MB/s (best of %s)%n", seqMbps,
        seqRuns);
    Map<String, Map<String, String>> results = new LinkedHashMap<>();
    for (String engine : ENGINES) {
      Path engineDir = dir.resolve(engine);
      results.put(engine, runChild(engine, engineDir, entries, gets));
      FileTrees.delete(engineDir);
    }
    double loadAfter = Machine.loadAverage();
    String report = FawnDsReport.render(results, seqMbps, seqRuns, entries, gets, VALUE_BYTES,
        started.truncatedTo(ChronoUnit.SECONDS).toString(), command, Machine.describe(),
        loadBefore, loadAfter);
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  private static void usage(int status) {
    System.err.println("""
        Usage: ./fawn bench-kv [entries (7000000)] [--gets N (min(entries, 2000000))] \
        [--dir D (target/bench-kv)]
          Loads entries x (20-byte key, 200-byte value) into FAWN-DS, RocksDB and BDB-JE, each
          in its own JVM, then random gets; FAWN-DS also splits and merges. Needs about
          4 x entries x 250 bytes of free disk under D. Updates docs/benchmarks.md.""");
    System.exit(status);
  }

  /** Writes the load's byte count from a 1 MiB buffer, forced at the end; MB/s. */
  static double sequentialWriteMbps(KvWorkload workload, Path file) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
    buffer.put(workload.pool(), 0, buffer.capacity());
    long total = workload.loadBytes();
    long start = System.nanoTime();
    try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      long written = 0;
      while (written < total) {
        buffer.clear().limit((int) Math.min(buffer.capacity(), total - written));
        while (buffer.hasRemaining()) {
          written += out.write(buffer);
        }
      }
      out.force(false);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Files.delete(file);
    return total / seconds / 1e6;
  }

  private static Map<String, String> runChild(String engine, Path dir, long entries, long gets)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, CHILD_HEAP,
        "-cp", System.getProperty("java.class.path"), KvEngineRun.class.getName(), engine,
        dir.toString(), Long.toString(entries), Integer.toString(VALUE_BYTES),
        Long.toString(gets), Long.toString(SEED)));
    System.out.println("== " + engine);
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    Map<String, String> results = new LinkedHashMap<>();
    try (BufferedReader out = new BufferedReader(
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        System.out.println("  " + line);
        if (line.startsWith("result ")) {
          String[] parts = line.substring(7).split("\t", 2);
          results.put(parts[0], parts[1]);
        }
      }
    } finally {
      if (child.isAlive()) {
        child.destroyForcibly();
      }
    }
    int status = child.waitFor();
    if (status != 0) {
      throw new IllegalStateException(engine + " run failed with exit status " + status
          + " (its output is above)");
    }
    return results;
  }
}
