package org.fawnpack.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreStats;
import org.fawnpack.kv.store.RangeMoves;

/**
 * The child JVM of {@link FawnDsBenchmark}: one engine, one fresh directory. Loads, measures
 * memory, runs random gets with 1 and 2 threads, and for FAWN-DS also splits and merges the
 * loaded datastore beside a plain copy of its file. Prints "result NAME\tVALUE" lines.
 *
 * <p>Usage: KvEngineRun engine dir entries value-bytes gets-per-thread seed
 */
public final class KvEngineRun {

  private static final double MISS_SHARE = 0.10;

  private KvEngineRun() {}

  public static void main(String[] args) throws Exception {
    String engineName = args[0];
    Path dir = Path.of(args[1]);
    long entries = Long.parseLong(args[2]);
    int valueBytes = Integer.parseInt(args[3]);
    long getsPerThread = Long.parseLong(args[4]);
    long seed = Long.parseLong(args[5]);
    KvWorkload workload = new KvWorkload(entries, valueBytes, seed);

    long heapBefore = heapAfterGc();
    long rssBefore = rssBytes();
    long heapOpen = runEngine(engineName, dir, entries, getsPerThread, seed, workload,
        heapBefore, rssBefore);
    // What the engine held: heap with it open and loaded minus heap once it is closed and gone.
    result("heap.bytes-per-key", (double) (heapOpen - heapAfterGc()) / entries);
  }

  /** Runs every phase; returns the heap in use (after GC) right after the load. */
  private static long runEngine(String engineName, Path dir, long entries, long getsPerThread,
      long seed, KvWorkload workload, long heapBefore, long rssBefore) throws Exception {
    long heapOpen;
    try (KvEngine engine = KvEngine.open(engineName, dir, entries)) {
      result("engine", engine.name());
      long start = System.nanoTime();
      for (long i = 0; i < entries; i++) {
        engine.put(workload.key(i), workload.value(i));
      }
      engine.finishLoad();
      double loadSeconds = (System.nanoTime() - start) / 1e9;
      result("load.seconds", loadSeconds);
      result("load.mbps", workload.loadBytes() / loadSeconds / 1e6);
      result("load.puts-per-second", entries / loadSeconds);
      heapOpen = heapAfterGc();
      result("heap-growth.bytes-per-key", (double) (heapOpen - heapBefore) / entries);
      result("rss.bytes-per-key", (double) (rssBytes() - rssBefore) / entries);
      result("disk.bytes", directoryBytes(dir));
      for (Map.Entry<String, String> e : engine.selfReported().entrySet()) {
        result("self." + e.getKey(), e.getValue());
      }
      DatastoreStats before = engine instanceof FawnDsEngine f ? f.stats() : null;
      if (before != null) {
        result("index.bytes-per-key", (double) before.indexBytes() / entries);
      }
      gets(engine, workload, Math.min(getsPerThread, 200_000), 1, seed + 1); // warm-up
      if (engine instanceof FawnDsEngine f) {
        before = f.stats();
      }
      for (int threads = 1; threads <= 2; threads++) {
        GetResult r = gets(engine, workload, getsPerThread, threads, seed + 10 + threads);
        result("gets" + threads + ".ops-per-second", r.opsPerSecond);
        result("gets" + threads + ".p50-us", r.latency.quantileMicros(0.50));
        result("gets" + threads + ".p99-us", r.latency.quantileMicros(0.99));
      }
      if (engine instanceof FawnDsEngine f) {
        DatastoreStats after = f.stats();
        long lookups = 3 * getsPerThread; // the measured rounds: 1 thread, then 2
        result("log-reads-per-get", (double) (after.logReads() - before.logReads()) / lookups);
        result("fragment-false-positives-per-get",
            (double) (after.fragmentFalsePositives() - before.fragmentFalsePositives()) / lookups);
        splitAndMerge(f.store(), dir);
      }
    }
    return heapOpen;
  }

  private record GetResult(double opsPerSecond, LatencyHistogram latency) {}

  /** {@code perThread} uniform random gets on each of {@code threads}, 10 % of them misses. */
  private static GetResult gets(KvEngine engine, KvWorkload workload, long perThread,
      int threads, long seed) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<LatencyHistogram>> futures = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      SplittableRandom random = new SplittableRandom(seed * 31 + t);
      futures.add(pool.submit(() -> {
        LatencyHistogram latency = new LatencyHistogram();
        for (long n = 0; n < perThread; n++) {
          boolean miss = random.nextDouble() < MISS_SHARE;
          long i = miss ? workload.entries + random.nextLong(workload.entries)
              : random.nextLong(workload.entries);
          byte[] key = workload.key(i);
          long t0 = System.nanoTime();
          byte[] value = engine.get(key);
          latency.record(System.nanoTime() - t0);
          if (miss ? value != null : !workload.isValueOf(i, value)) {
            throw new IllegalStateException(engine.name() + " returned a wrong value for key "
                + i + (miss ? " (never written)" : ""));
          }
        }
        return latency;
      }));
    }
    LatencyHistogram all = new LatencyHistogram();
    for (Future<LatencyHistogram> f : futures) {
      all.add(f.get());
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    pool.shutdown();
    return new GetResult(perThread * threads / seconds, all);
  }

  /** Rounds of copy / split / merge: each figure is the best round, as the device limit is. */
  static final int SPLIT_MERGE_ROUNDS = 3;

  /**
   * Split at the middle of the ring and merge the halves back, beside a plain copy of the file,
   * interleaved for {@link #SPLIT_MERGE_ROUNDS} rounds (new files each round) so that the
   * machine's load treats the three alike; reports each one's best and all runs. The page cache
   * does not treat them alike: the merge is the step of each round that grows it, while copy and
   * split reuse pages the round before freed (docs/fawn-ds.md#benchmark).
   */
  private static void splitAndMerge(Datastore store, Path dir) throws IOException {
    store.sync();
    Path log = store.path();
    long logBytes = Files.size(log);
    result("split.input-bytes", logBytes);
    List<Double> copyMbps = new ArrayList<>();
    List<Double> splitMbps = new ArrayList<>();
    List<Double> mergeMbps = new ArrayList<>();
    long mergeBytes = 0;
    for (int round = 0; round < SPLIT_MERGE_ROUNDS; round++) {
      long start = System.nanoTime();
      Path copy = dir.resolve("copy.bin");
      plainCopy(log, copy);
      copyMbps.add(logBytes / ((System.nanoTime() - start) / 1e9) / 1e6);
      Files.delete(copy);

      Path lowPath = dir.resolve("low.fds");
      Path highPath = dir.resolve("high.fds");
      start = System.nanoTime();
      RangeMoves.SplitResult parts = RangeMoves.split(store, 0x8000_0000_0000_0000L, lowPath,
          highPath);
      splitMbps.add(logBytes / ((System.nanoTime() - start) / 1e9) / 1e6);
      try (Datastore low = parts.lower(); Datastore high = parts.upper()) {
        long keys = low.size() + high.size();
        if (keys != store.size()) {
          throw new IllegalStateException("split kept " + keys + " of " + store.size() + " keys");
        }
        mergeBytes = Files.size(high.path());
        start = System.nanoTime();
        RangeMoves.merge(low, high);
        mergeMbps.add(mergeBytes / ((System.nanoTime() - start) / 1e9) / 1e6);
        if (low.size() != store.size()) {
          throw new IllegalStateException("merge holds " + low.size() + " of " + store.size());
        }
      }
      for (Path p : List.of(lowPath, highPath)) {
        Files.deleteIfExists(p);
        Files.deleteIfExists(p.resolveSibling(p.getFileName() + ".idx"));
      }
    }
    result("merge.input-bytes", mergeBytes);
    reportRuns("copy.mbps", copyMbps);
    reportRuns("split.mbps", splitMbps);
    reportRuns("merge.mbps", mergeMbps);
  }

  /**
   * The best of the runs as NAME, every run, in order, as NAME-runs, and their mean and sample
   * sd as NAME-mean and NAME-sd (numbers: the parent formats them with RoundStats.meanSd).
   */
  private static void reportRuns(String name, List<Double> mbps) {
    RoundStats runs = RoundStats.of(mbps);
    result(name, runs.max());
    result(name + "-runs", String.join(", ",
        mbps.stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList()));
    result(name + "-mean", runs.mean());
    result(name + "-sd", runs.sd());
  }

  /** A 1 MiB-buffered read and write of the file, forced at the end, like split's output. */
  static void plainCopy(Path from, Path to) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
    try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE)) {
      while (in.read(buffer) >= 0) {
        buffer.flip();
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        buffer.clear();
      }
      out.force(false);
    }
  }

  private static long heapAfterGc() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Resident set size from /proc/self/status (Linux), -1 elsewhere. */
  private static long rssBytes() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return -1;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return -1;
  }

  private static long directoryBytes(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static void result(String name, Object value) {
    String text = value instanceof Double d ? String.format(Locale.ROOT, "%.6f", d)
        : String.valueOf(value);
    System.out.println("result " + name + "\t" + text);
    System.out.flush();
  }
}
