package org.fawnpack.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The markdown of the fawn-ds section: the engines side by side, then the targets. */
final class FawnDsReport {

  private FawnDsReport() {}

  static String render(Map<String, Map<String, String>> results, double seqMbps,
      List<Double> seqRuns, long entries,
      long gets, int valueBytes, String when, String command, String machine, double loadBefore,
      double loadAfter) {
    Map<String, String> fawn = results.get(FawnDsEngine.NAME);
    Map<String, String> rocks = results.get(RocksDbEngine.NAME);
    Map<String, String> bdb = results.get(BdbJeEngine.NAME);
    StringBuilder s = new StringBuilder();
    s.append("## FAWN-DS against BDB-JE and RocksDB\n\n");
    s.append(String.format(Locale.ROOT, "- measured %s by `%s`; machine: %s; 1-minute load "
        + "average %.1f at the start, %.1f at the end (absolute figures move with the machine's "
        + "load and page cache; compare the ratios)%n", when, command, machine, loadBefore,
        loadAfter));
    s.append(String.format(Locale.ROOT, "- %,d entries of 20-byte random keys and %d-byte "
        + "values (%.2f GB of user bytes); no sync per write, one sync at the end (FAWN-DS "
        + "`fawn.kv.sync=none` + sync(), RocksDB WAL off + memtable flush, BDB-JE deferred-write "
        + "+ Database.sync()); each engine in its own JVM with -Xmx3g; gets: %,d per thread, "
        + "uniform over the loaded keys, 10 %% misses, every value checked; data in the page "
        + "cache (caches not dropped)%n", entries, valueBytes, entries * (20.0 + valueBytes) / 1e9,
        gets));
    s.append(String.format(Locale.ROOT, "- plain 1 MiB-buffered sequential write of the same "
        + "bytes, fdatasync at the end: **%.0f MB/s**, the best of %d runs (%s MB/s; mean ± sd "
        + "%s MB/s)%n%n",
        seqMbps, seqRuns.size(), seqRuns.stream()
            .map(v -> String.format(Locale.ROOT, "%.0f", v)).collect(Collectors.joining(", ")),
        RoundStats.of(seqRuns).meanSd("%.0f")));
    s.append("| engine | load s | load MB/s | puts/s | heap B/key | RSS B/key | disk MB "
        + "| gets/s 1 thread | p50 / p99 µs | gets/s 2 threads | p50 / p99 µs |\n");
    s.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Map<String, String> r : results.values()) {
      s.append(String.format(Locale.ROOT,
          "| %s | %.1f | %.0f | %,.0f | %.1f | %.1f | %.0f | %,.0f | %.1f / %.1f | %,.0f | "
              + "%.1f / %.1f |%n",
          r.get("engine"), d(r, "load.seconds"), d(r, "load.mbps"),
          d(r, "load.puts-per-second"), d(r, "heap.bytes-per-key"), d(r, "rss.bytes-per-key"),
          d(r, "disk.bytes") / 1e6, d(r, "gets1.ops-per-second"), d(r, "gets1.p50-us"),
          d(r, "gets1.p99-us"), d(r, "gets2.ops-per-second"), d(r, "gets2.p50-us"),
          d(r, "gets2.p99-us")));
    }
    s.append("\nheap B/key: heap in use after a full GC with the loaded engine open, minus the "
        + "same once it is closed and unreachable (what the engine holds in Java objects: "
        + "FAWN-DS's index array, BDB-JE's cache). RSS B/key: "
        + "resident memory growth of the JVM over the same span (includes RocksDB's native "
        + "memtables, block cache and table readers, and any heap the JVM grew).\n");
    for (Map.Entry<String, Map<String, String>> e : results.entrySet()) {
      StringBuilder self = new StringBuilder();
      for (Map.Entry<String, String> r : e.getValue().entrySet()) {
        if (r.getKey().startsWith("self.")) {
          self.append(self.length() == 0 ? "" : ", ").append(r.getKey().substring(5))
              .append(" = ").append(r.getValue());
        }
      }
      if (self.length() > 0) {
        s.append("Self-reported by ").append(e.getKey()).append(": ").append(self).append(".\n");
      }
    }
    s.append(String.format(Locale.ROOT, "%nFAWN-DS split of its %.2f GB log at the middle of "
        + "the ring: %.0f MB/s; merge of the upper half (%.2f GB) back into the lower: %.0f MB/s "
        + "of merged input; plain 1 MiB-buffered copy of the log file: %.0f MB/s. Each is the "
        + "best of %d interleaved rounds (copy, split, merge; runs: copy %s, split %s, merge %s "
        + "MB/s; mean ± sd: copy %s, split %s, merge %s MB/s). Log reads per get: %.5f; "
        + "fragment false positives per get: %.6f.%n%n",
        d(fawn, "split.input-bytes") / 1e9, d(fawn, "split.mbps"),
        d(fawn, "merge.input-bytes") / 1e9, d(fawn, "merge.mbps"), d(fawn, "copy.mbps"),
        KvEngineRun.SPLIT_MERGE_ROUNDS, fawn.get("copy.mbps-runs"), fawn.get("split.mbps-runs"),
        fawn.get("merge.mbps-runs"), meanSd(fawn, "copy.mbps"), meanSd(fawn, "split.mbps"),
        meanSd(fawn, "merge.mbps"), d(fawn, "log-reads-per-get"),
        d(fawn, "fragment-false-positives-per-get")));
    s.append("| target (issue #6) | measured | met |\n|---|---|---|\n");
    double indexPerKey = d(fawn, "heap.bytes-per-key");
    target(s, "index DRAM ≤ 8 B/key", String.format(Locale.ROOT,
        "%.2f B/key heap (index array alone %.2f)", indexPerKey,
        d(fawn, "index.bytes-per-key")), indexPerKey <= 8);
    ratio(s, "load ≥ 1.5x RocksDB", d(fawn, "load.puts-per-second"),
        d(rocks, "load.puts-per-second"), 1.5);
    ratio(s, "load ≥ 5x BDB-JE", d(fawn, "load.puts-per-second"),
        d(bdb, "load.puts-per-second"), 5);
    ratio(s, "load MB/s ≥ 0.6x plain sequential write", d(fawn, "load.mbps"), seqMbps, 0.6);
    ratio(s, "gets ≥ 1.2x RocksDB, 1 thread", d(fawn, "gets1.ops-per-second"),
        d(rocks, "gets1.ops-per-second"), 1.2);
    ratio(s, "gets ≥ 1.2x RocksDB, 2 threads", d(fawn, "gets2.ops-per-second"),
        d(rocks, "gets2.ops-per-second"), 1.2);
    double reads = d(fawn, "log-reads-per-get");
    target(s, "≤ 1.001 log reads per get", String.format(Locale.ROOT, "%.5f", reads),
        reads <= 1.001);
    ratio(s, "split ≥ 0.5x plain copy", d(fawn, "split.mbps"), d(fawn, "copy.mbps"), 0.5);
    ratio(s, "merge ≥ 0.5x plain copy", d(fawn, "merge.mbps"), d(fawn, "copy.mbps"), 0.5);
    s.append("\nLog reads per get counts every record read, misses included (a miss reads "
        + "only on a fragment false positive), so it is below 1 with 10 % misses.\n");
    return s.toString();
  }

  private static void ratio(StringBuilder s, String name, double ours, double theirs,
      double wanted) {
    double ratio = ours / theirs;
    target(s, name, String.format(Locale.ROOT, "%.2fx", ratio), ratio >= wanted);
  }

  private static void target(StringBuilder s, String name, String measured, boolean met) {
    s.append("| ").append(name).append(" | ").append(measured).append(" | ")
        .append(met ? "yes" : "**no**").append(" |\n");
  }

  /** NAME-mean ± NAME-sd as the engine's JVM reported them. */
  private static String meanSd(Map<String, String> r, String name) {
    return RoundStats.meanSd(d(r, name + "-mean"), d(r, name + "-sd"), "%.0f");
  }

  private static double d(Map<String, String> r, String key) {
    String v = r == null ? null : r.get(key);
    return v == null ? Double.NaN : Double.parseDouble(v);
  }
}
