package org.fawnpack.benchmarks;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.loopback.LoopbackWorkload;
import org.fawnpack.kv.ring.Ring;

/**
 * Moving data: a fifth back-end joins four holding the loaded data, then one back-end is killed
 * and its arcs re-replicated from the survivors, and both once more in JVMs that moved data
 * before; each move's bytes (every back-end's
 * {@code bytesCopiedIn} in STATS) and seconds, against a plain loopback copy of as many bytes
 * in the same run. Writes the "fawn-kv-moves" section of docs/benchmarks.md.
 */
final class KvMovesPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-moves (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-moves -->";
  private static final int VALUE_BYTES = 16 * 1024;

  private KvMovesPart() {}

  static void run(KvClusterOptions options) throws Exception {
    Path dir = options.dir().resolve("moves");
    String command = "./fawn bench-kv-cluster --part moves --move-mb " + options.moveMegabytes();
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    int keys = (int) ((long) options.moveMegabytes() * 1024 * 1024 / VALUE_BYTES);
    List<String> rows = new ArrayList<>();
    double worstShare;
    double worstWarmShare;
    double loadRate;
    try (LoopbackCluster cluster = LoopbackCluster.start(dir.resolve("cluster"), 4, 1,
        Map.of())) {
      LoopbackWorkload workload = new LoopbackWorkload(cluster.frontEndAddresses(),
          cluster.secret());
      loadRate = workload.load(keys, VALUE_BYTES, 4);
      System.out.printf(Locale.ROOT, "loaded %,d keys of %,d bytes at %,.0f puts/s%n", keys,
          VALUE_BYTES, loadRate);

      // Each kind of move twice: first in JVMs that never moved data (their move code still
      // interpreted or being compiled), then in ones that did (sources and survivors warm).
      Move join = join(cluster, dir, "b4", "127.0.0.5");
      Move failure = failure(cluster, dir, "b1");
      Move warmJoin = join(cluster, dir, "b5", "127.0.0.6");
      Move warmFailure = failure(cluster, dir, "b2");
      rows.add(join.row("join of b4 (first move)"));
      rows.add(failure.row("failure of b1 (SIGKILL)"));
      rows.add(warmJoin.row("join of b5 (sources moved before)"));
      rows.add(warmFailure.row("failure of b2 (survivors moved before)"));
      worstShare = Math.min(join.share(), failure.share());
      worstWarmShare = Math.min(warmJoin.share(), warmFailure.share());
    }
    rows.forEach(System.out::println);
    double loadAfter = Machine.loadAverage();
    StringBuilder report = new StringBuilder();
    report.append("### FAWN-KV cluster: joins and failures, seconds per GB moved\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. 4 back-ends as child JVMs on 127.0.0.1–.4 (chains of 3, 4 virtual"
        + " nodes each), %,d keys of %,d bytes loaded through one front-end (%,.0f puts/s),"
        + " then b4 joins, b1 is killed, b5 joins and b2 is killed, one after another (the"
        + " last two in JVMs whose move code ran before). Bytes moved: the sum of every back-end's"
        + " arc-file bytes received by whole-file transfer (`bytesCopiedIn` in STATS) over"
        + " the move. The move is timed from the ring epoch that starts it (b4 a member, its"
        + " frozen arcs settled, so members split them and it copies; b1 marked down, its"
        + " chains extended) to the one in which every chain is whole, polling ZooKeeper every"
        + " 0.1 s; the time before that (b4's JVM start, registration and the freeze; the"
        + " kill's detection by session expiry, 4 s here) is shown apart. Baseline: the same number of bytes written to a file, then sent over"
        + " one loopback TCP connection into another file and forced to disk, in the"
        + " benchmark's JVM right after the move.%n%n",
        started.truncatedTo(ChronoUnit.SECONDS), Machine.describe(), command, loadBefore,
        loadAfter, keys, VALUE_BYTES, loadRate));
    report.append("| move | s before the move starts | MB moved | s moving | s per GB | plain"
        + " copy, s per GB | move rate ÷ copy rate |\n|---|---|---|---|---|---|---|\n");
    rows.forEach(r -> report.append(r).append('\n'));
    report.append(String.format(Locale.ROOT, "%nTarget (each move at ≥ 50 %% of a plain"
        + " loopback copy's rate): first moves %s (lowest share %.0f %%), later moves %s"
        + " (lowest %.0f %%).%n", worstShare >= 0.5 ? "met" : "NOT met", 100 * worstShare,
        worstWarmShare >= 0.5 ? "met" : "NOT met", 100 * worstWarmShare));
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }

  private static Move join(LoopbackCluster cluster, Path dir, String id, String host)
      throws Exception {
    return Move.measure(cluster, dir, () -> cluster.startBackend(id, host),
        r -> r.member(id) != null, r -> r.member(id) != null && r.joining().isEmpty()
            && r.pending().isEmpty());
  }

  private static Move failure(LoopbackCluster cluster, Path dir, String id) throws Exception {
    return Move.measure(cluster, dir, () -> cluster.killBackend(id), r -> r.isDown(id),
        r -> r.isDown(id) && r.pending().isEmpty());
  }

  /** Starts a move and times it, as seen in the stored ring; its bytes and the baseline. */
  private record Move(long bytes, double before, double seconds, double copySeconds) {
    interface Start {
      void run() throws Exception;
    }

    /**
     * Runs {@code start}, waits until the ring shows the move {@code started} and then
     * {@code done}: bytes are those the back-ends received meanwhile; then copies as many
     * bytes plainly for the baseline.
     */
    static Move measure(LoopbackCluster cluster, Path dir, Start start,
        Predicate<Ring> started,
        Predicate<Ring> done) throws Exception {
      Map<String, Long> copiedBefore = copiedIn(cluster);
      long asked = System.nanoTime();
      start.run();
      cluster.awaitRing("the move to start", started);
      long begun = System.nanoTime();
      cluster.awaitRing("the move to end", done);
      long ended = System.nanoTime();
      long bytes = copiedSince(cluster, copiedBefore);
      return new Move(bytes, (begun - asked) / 1e9, (ended - begun) / 1e9,
          LoopbackCopy.seconds(dir.resolve("copy"), bytes));
    }

    /** The move's rate over the plain copy's. */
    double share() {
      return copySeconds / seconds;
    }

    String row(String move) {
      double gb = bytes / 1e9;
      return String.format(Locale.ROOT, "| %s | %.1f | %,.1f | %.2f | %.1f | %.1f | %.0f %% |",
          move, before, bytes / 1e6, seconds, seconds / gb, copySeconds / gb, 100 * share());
    }
  }

  /** Arc-file bytes each live back-end received by transfer since it started, by id. */
  private static Map<String, Long> copiedIn(LoopbackCluster cluster)
      throws java.io.IOException {
    Map<String, Long> byId = new java.util.HashMap<>();
    cluster.backendStats().forEach((id, report) -> byId.put(id, report.bytesCopiedIn()));
    return byId;
  }

  /** Bytes the back-ends live now received since {@code before} was taken. */
  private static long copiedSince(LoopbackCluster cluster, Map<String, Long> before)
      throws java.io.IOException {
    long total = 0;
    for (Map.Entry<String, Long> now : copiedIn(cluster).entrySet()) {
      total += now.getValue() - before.getOrDefault(now.getKey(), 0L);
    }
    return total;
  }
}
