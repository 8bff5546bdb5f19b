package org.fawnpack.kv.loopback;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.fawnpack.kv.cli.ClusterInspection;
import org.fawnpack.kv.cli.KvCommand;
import org.fawnpack.kv.cli.KvSettings;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.StatsReport;

/**
 * {@code ./fawn demo --kv}: an embedded ZooKeeper, five back-ends as child JVMs on 127.0.0.1 to
 * .5 (chains of three), two front-ends in this JVM. Loads keys, reads them Zipf-skewed with
 * the front-ends' caches off and on (throughput, hit rate, and the gets that still reach the
 * back-ends), kills one back-end with SIGKILL under writes and checks every
 * acknowledged write, then adds a sixth back-end and prints the ring.
 */
final class KvDemo {
  private static final int BACKENDS = 5;

  private final PrintStream out;
  private final PrintStream err;

  KvDemo(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(Map<String, String> given, KvCommand.CommandLine line) throws Exception {
    line.noPositionals();
    Path dir = Path.of(line.option("--dir", "target/kv-demo"));
    int keys = line.intOption("--keys", 20_000, 100, 10_000_000);
    int seconds = line.intOption("--seconds", 5, 1, 600);
    // The back-ends live about a minute: C1 only (ChildBackends.SHORT_LIVED_JVM).
    try (LoopbackCluster cluster = LoopbackCluster.start(dir, BACKENDS, 2, given,
        ChildBackends.SHORT_LIVED_JVM)) {
      KvSettings kv = cluster.settings();
      List<FrontEnd> frontEnds = cluster.frontEnds();
      Ring ring = cluster.ring();
      out.printf("FAWN-KV demo: ZooKeeper at %s, %d back-ends (child JVMs, logs in %s), 2"
          + " front-ends, chains of %d%n%s%n", cluster.zooKeeperQuorum(), BACKENDS,
          dir.resolve("backends"), kv.replicas(), ring);
      LoopbackWorkload load = new LoopbackWorkload(cluster.frontEndAddresses(),
          cluster.secret());
      out.printf("%n1. loaded %,d keys (100-byte values) in batches: %,.0f puts/s%n", keys,
          load.load(keys, 100, 1));
      skewedReads(load, keys, seconds, frontEnds, ring, kv);
      int exit = killUnderWrites(load, keys, cluster);
      cluster.backends().start("b" + BACKENDS, "127.0.0." + (BACKENDS + 1));
      long joinStart = System.nanoTime();
      Ring joined = cluster.awaitRing("back-end b" + BACKENDS + " to join",
          r -> r.member("b" + BACKENDS) != null && r.joining().isEmpty()
              && r.pending().isEmpty());
      out.printf("%n4. back-end b%d joined and copied its arcs in %.1f s (ring epoch %d):%n",
          BACKENDS, (System.nanoTime() - joinStart) / 1e9, joined.epoch());
      new ClusterInspection(kv, out, err).ring();
      return exit;
    }
  }

  /** Zipf gets with the caches off, then on: throughput, hit rate, gets the tails served. */
  private void skewedReads(LoopbackWorkload load, int keys, int seconds,
      List<FrontEnd> frontEnds, Ring ring, KvSettings kv) throws Exception {
    LoopbackWorkload.Zipf zipf = new LoopbackWorkload.Zipf(keys, 0.99);
    out.printf("%n2. Zipf(0.99) gets over the %,d keys, 4 clients, %d s each:%n", keys,
        seconds);
    out.printf("   %-22s %10s %9s %16s %14s%n", "front-end cache", "gets/s", "hit rate",
        "back-end gets/s", "gets/joule");
    try (ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(10),
        ProtocolLimits.MAX_FRAME_BYTES, kv.secret())) {
      for (long entries : new long[] {0, FrontEnd.CACHE_ENTRIES_AUTO}) {
        frontEnds.forEach(f -> f.resizeCache(entries));
        Map<Member, StatsReport> before = ClusterInspection.statsOf(pool, ring,
            List.copyOf(ring.members()), err, kv.timeouts());
        long hits = hits(frontEnds);
        long misses = misses(frontEnds);
        LoopbackWorkload.Gets gets = load.gets(zipf, 4, seconds);
        Map<Member, StatsReport> after = ClusterInspection.statsOf(pool, ring,
            List.copyOf(ring.members()), err, kv.timeouts());
        long hitsNow = hits(frontEnds) - hits;
        long lookups = hitsNow + misses(frontEnds) - misses;
        long capacity = frontEnds.get(0).metrics().getCacheCapacity();
        double joules = backendJoules(before, after);
        out.printf("   %-22s %,10.0f %9s %,16.0f %14s%s%n", entries == 0 ? "off"
            : "on, " + capacity + " keys each", gets.perSecond(), entries == 0 ? "-"
            : String.format("%.0f %%", 100.0 * hitsNow / Math.max(1, lookups)),
            servedByTails(before, after) / gets.seconds(), joules <= 0 ? "-"
            : String.format("%,.0f", gets.done() / joules), gets.failed() == 0 ? ""
            : " (" + gets.failed() + " gets failed)");
      }
    }
    out.println("   (on: N log2 N keys per front-end for N back-ends, the paper's bound;"
        + " back-end gets/s: the gets the chains' tails served; gets/joule: the clients' gets"
        + " over the back-ends' joules, front-ends not counted; the joules are ESTIMATED, each"
        + " back-end as a node that runs only it, with the power model fawn.kv.energy.*-watts"
        + " unless a collector port is given)");
  }

  /** Gets the tails served during a run, over every back-end. */
  private static long servedByTails(Map<Member, StatsReport> before,
      Map<Member, StatsReport> after) {
    long served = 0;
    for (Map.Entry<Member, StatsReport> e : after.entrySet()) {
      StatsReport then = before.get(e.getKey());
      served += e.getValue().gets() - (then == null ? 0 : then.gets());
    }
    return served;
  }

  /** The back-ends' joules between two STATS rounds; -1 when none is metered. */
  private static double backendJoules(Map<Member, StatsReport> before,
      Map<Member, StatsReport> after) {
    double joules = -1;
    for (Map.Entry<Member, StatsReport> e : after.entrySet()) {
      StatsReport then = before.get(e.getKey());
      if (then != null && then.microjoules() >= 0 && e.getValue().microjoules() >= 0) {
        joules = Math.max(joules, 0) + (e.getValue().microjoules() - then.microjoules()) / 1e6;
      }
    }
    return joules;
  }

  private static long hits(List<FrontEnd> frontEnds) {
    return frontEnds.stream().mapToLong(f -> f.metrics().getCacheHits()).sum();
  }

  private static long misses(List<FrontEnd> frontEnds) {
    return frontEnds.stream().mapToLong(f -> f.metrics().getCacheMisses()).sum();
  }

  /** Writers run while b2 is killed; afterwards every acknowledged write must read back. */
  private int killUnderWrites(LoopbackWorkload load, int keys, LoopbackCluster cluster)
      throws Exception {
    LoopbackWorkload.Writers writers = load.new Writers(2, 500);
    Thread.sleep(1_000); // writes under way before the kill
    cluster.backends().kill9("b2");
    long killed = System.nanoTime();
    cluster.awaitRing("b2 to be marked down and its arcs copied",
        r -> r.isDown("b2") && r.pending().isEmpty());
    double repairSeconds = (System.nanoTime() - killed) / 1e9;
    Thread.sleep(1_000); // writes to the repaired chains
    writers.stop();
    List<String> wrong = writers.check();
    List<String> lostLoad = load.missingLoadedKeys(keys);
    out.printf("%n3. killed back-end b2 (SIGKILL) under 2 writers; marked down and its arcs"
        + " re-replicated after %.1f s%n", repairSeconds);
    out.printf("   writes: %,d acknowledged, %,d refused (short chains while copying), %,d"
        + " with an unknown outcome%n", writers.acknowledged(), writers.refused(),
        writers.unknown());
    if (wrong.isEmpty() && lostLoad.isEmpty()) {
      out.printf("   every acknowledged write reads back with its latest value, and all %,d"
          + " loaded keys too%n", keys);
      return KvCommand.EXIT_OK;
    }
    wrong.stream().limit(10).forEach(w -> out.println("   LOST: " + w));
    lostLoad.stream().limit(10).forEach(w -> out.println("   LOST: " + w));
    return KvCommand.EXIT_FAILED;
  }
}
