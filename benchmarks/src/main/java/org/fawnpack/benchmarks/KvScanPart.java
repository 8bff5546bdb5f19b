package org.fawnpack.benchmarks;

import org.fawnpack.kv.wire.ProtocolLimits;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.loopback.LoopbackWorkload;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.RangeScan;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.store.StoreView;
import org.fawnpack.kv.wire.ConnectionPool;

/**
 * Range scans: the whole store read through {@link RangeScan} from the arcs' tails (one
 * reader, then four at once on quarters of the ring), against reading the same tails' arc files
 * in this JVM — as plain bytes in 4 MiB reads, and through the engine ({@link StoreView} over
 * copies of the files). Writes the "fawn-kv-scan" section of docs/benchmarks.md.
 */
final class KvScanPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-scan (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-scan -->";
  private static final int VALUE_BYTES = 1000;

  private KvScanPart() {}

  /** One way of reading everything: entries, their key and value bytes, seconds. */
  /** A read's entries, bytes and seconds, and the CPU seconds it took (NaN: not measured). */
  record Read(long entries, long bytes, double seconds, double cpuSeconds) {
    Read(long entries, long bytes, double seconds) {
      this(entries, bytes, seconds, Double.NaN);
    }

    Read withCpu(double cpu) {
      return new Read(entries, bytes, seconds, cpu);
    }
  }

  static void run(KvClusterOptions options) throws Exception {
    Path dir = options.dir().resolve("scan");
    String command = "./fawn bench-kv-cluster --part scan --keys " + options.keys();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    List<String> rows = new ArrayList<>();
    double loadRate;
    long fileBytes;
    double scanShare;
    double engineShare;
    try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("cluster"), 4, 1,
        Map.of())) {
      loadRate = new LoopbackWorkload(cluster.frontEndAddresses(), cluster.secret())
          .load(options.keys(), VALUE_BYTES, 4);
      Ring ring = cluster.ring();
      List<Path> tailFiles = tailFiles(cluster, ring);
      fileBytes = 0;
      for (Path f : tailFiles) {
        fileBytes += Files.size(f);
      }
      List<ProcessHandle> thisJvm = List.of(ProcessHandle.current());
      readFiles(tailFiles); // warm-up, as the scans below have theirs; not recorded
      Read raw = measured(thisJvm, () -> readFiles(tailFiles));
      readWithTheEngine(tailFiles, dir.resolve("copies"));
      Read engine = readWithTheEngine(tailFiles, dir.resolve("copies")); // its own CPU
      List<ProcessHandle> all = new ArrayList<>(cluster.backendProcesses().values());
      all.add(ProcessHandle.current());
      Read one;
      Read four;
      try (ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(30),
          ProtocolLimits.MAX_FRAME_BYTES, cluster.secret())) {
        scanAll(ring, pool, 1); // warm-up: connections, JIT; not recorded
        one = measured(all, () -> scanAll(ring, pool, 1));
        four = measured(all, () -> scanAll(ring, pool, 4));
      }
      rows.add(row("tails' arc files read as bytes, 4 MiB reads, this JVM", raw, fileBytes,
          raw, engine));
      rows.add(row("the same files through the engine (StoreView, in place), this JVM", engine,
          fileBytes, raw, engine));
      rows.add(row("RangeScan of the whole ring, 1 reader, 1 MiB pages", one, fileBytes, raw,
          engine));
      rows.add(row("RangeScan, 4 readers on quarters of the ring at once", four, fileBytes,
          raw, engine));
      if (one.entries() != options.keys() || four.entries() != options.keys()
          || engine.entries() != options.keys()) {
        throw new IllegalStateException("a read returned " + one.entries() + ", "
            + four.entries() + " and " + engine.entries() + " entries of " + options.keys());
      }
      scanShare = raw.seconds() / one.seconds();
      engineShare = engine.seconds() / Math.min(one.seconds(), four.seconds());
    }
    rows.forEach(System.out::println);
    StringBuilder report = new StringBuilder();
    report.append("### FAWN-KV cluster: range scans\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. 4 back-ends as child JVMs on 127.0.0.1–.4 (chains of 3, 4 virtual"
        + " nodes each), %,d keys of %,d-byte values loaded through one front-end (%,.0f"
        + " puts/s); the arcs' tails hold %,.1f MB of files, read from the page cache (just"
        + " written). Every read ran once unrecorded first (JIT, connections, page cache), then"
        + " once measured, and returned every key once. MB/s counts keys and values; the rates"
        + " are over reading the tails' files as plain bytes and over the engine's read of"
        + " them; CPU counts every process (the back-ends and this JVM) for the scans, the"
        + " reading thread for the engine's read (its copy and opening apart).%n%n",
        started.truncatedTo(ChronoUnit.SECONDS), Machine.describe(), command, loadBefore,
        Machine.loadAverage(), options.keys(), VALUE_BYTES, loadRate, fileBytes / 1e6));
    report.append("| read | entries | s | entries/s | MB/s | file MB/s | rate ÷ plain read"
        + " | rate ÷ engine read | CPU µs per entry |\n|---|---|---|---|---|---|---|---|---|\n");
    rows.forEach(r -> report.append(r).append('\n'));
    report.append(String.format(Locale.ROOT, "%nOne reader through the back-ends reads at"
        + " %.0f %% of the plain read of the same files; the faster of the two scans at %.0f %%"
        + " of the engine's read of them (issue 32's target for scans from the tails: 70 %%,"
        + " %s).%n", 100 * scanShare, 100 * engineShare, engineShare >= 0.7 ? "met"
            : "**not met**"));
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  /** The arc files of every arc's tail. */
  static List<Path> tailFiles(LoopbackCluster cluster, Ring ring) {
    List<Path> files = new ArrayList<>();
    for (Chain chain : ring.chains()) {
      files.add(Backend.arcFileOf(cluster.dataOf(chain.tail().id()),
          chain.range().endInclusive()));
    }
    return files;
  }

  private interface Timed {
    Read run() throws Exception;
  }

  /** {@code read} with the CPU that {@code processes} used while it ran. */
  private static Read measured(List<ProcessHandle> processes, Timed read) throws Exception {
    double cpu = CpuTime.seconds(processes);
    Read done = read.run();
    return done.withCpu(CpuTime.seconds(processes) - cpu);
  }

  private static String row(String what, Read read, long fileBytes, Read raw, Read engine) {
    return String.format(Locale.ROOT, "| %s | %,d | %.2f | %,.0f | %,.1f | %,.1f | %.0f %% | %s"
        + " | %s |", what, read.entries(), read.seconds(), read.entries() / read.seconds(),
        read.bytes() / 1e6 / read.seconds(), fileBytes / 1e6 / read.seconds(),
        100 * raw.seconds() / read.seconds(), read.entries() == 0 ? "–" : String.format(
            Locale.ROOT, "%.0f %%", 100 * engine.seconds() / read.seconds()),
        read.entries() == 0 ? "–" : String.format(Locale.ROOT, "%.2f", read.cpuSeconds() * 1e6 / read.entries()));
  }

  static Read readFiles(List<Path> files) throws Exception {
    long start = System.nanoTime();
    long bytes = 0;
    ByteBuffer buffer = ByteBuffer.allocateDirect(4 << 20);
    for (Path f : files) {
      try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          bytes += n;
          buffer.clear();
        }
      }
    }
    return new Read(0, bytes, (System.nanoTime() - start) / 1e9);
  }

  /**
   * Copies the files (the back-ends lock theirs), then reads views of them: the time and the
   * CPU (of this thread, which does the whole read) count the read alone, not the copy or the
   * opening. The copies are removed afterwards (a gigabyte per run would pile up otherwise).
   */
  static Read readWithTheEngine(List<Path> files, Path copies) throws Exception {
    Files.createDirectories(copies);
    List<Datastore> stores = new ArrayList<>();
    try {
      for (Path f : files) {
        Path copy = copies.resolve(f.getFileName());
        Files.copy(f, copy, StandardCopyOption.REPLACE_EXISTING);
        stores.add(Datastore.open(copy, DatastoreConfig.defaults()));
      }
      java.lang.management.ThreadMXBean threads =
          java.lang.management.ManagementFactory.getThreadMXBean();
      long cpuStart = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      long entries = 0;
      long bytes = 0;
      for (Datastore ds : stores) {
        StoreView.Entries all = ds.readView().entriesAfter(0, KeyRange.wholeRing());
        while (all.advance()) { // in place, the engine's cheapest read (as a tail's pages)
          entries++;
          bytes += all.keyLength() - 8 + all.valueLength();
        }
      }
      return new Read(entries, bytes, (System.nanoTime() - start) / 1e9,
          (threads.getCurrentThreadCpuTime() - cpuStart) / 1e9);
    } finally {
      for (Datastore ds : stores) {
        ds.close();
      }
      try (java.util.stream.Stream<Path> left = Files.list(copies)) {
        for (Path p : (Iterable<Path>) left::iterator) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  /** Reads the whole ring with {@code readers} scans at once, each a share of the ring. */
  private static Read scanAll(Ring ring, ConnectionPool pool, int readers) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(readers);
    try {
      long start = System.nanoTime();
      List<Future<long[]>> done = new ArrayList<>();
      long share = Long.divideUnsigned(-1L, readers) + 1; // 2^64 / readers
      for (int r = 0; r < readers; r++) {
        KeyRange range = readers == 1 ? KeyRange.wholeRing()
            : new KeyRange(r * share, r == readers - 1 ? 0 : (r + 1) * share);
        done.add(threads.submit(() -> {
          RangeScan scan = new RangeScan(() -> ring, pool, range, RangeScan.Options.defaults());
          long entries = 0;
          long bytes = 0;
          while (scan.advance()) { // in place, as the input format reads them
            entries++;
            bytes += scan.current().keyLength() + scan.current().valueLength();
          }
          return new long[] {entries, bytes};
        }));
      }
      long entries = 0;
      long bytes = 0;
      for (Future<long[]> f : done) {
        entries += f.get()[0];
        bytes += f.get()[1];
      }
      return new Read(entries, bytes, (System.nanoTime() - start) / 1e9);
    } finally {
      threads.shutdownNow();
    }
  }
}
