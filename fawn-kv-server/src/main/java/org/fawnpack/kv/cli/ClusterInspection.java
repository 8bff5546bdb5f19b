package org.fawnpack.kv.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.frontend.FrontEndStats;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.wire.Verb;
import org.fawnpack.kv.wire.StatsReport;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.fawnpack.kv.zookeeper.SliceStore;

/**
 * {@code fawn kv ring} and {@code fawn kv stats}: what the cluster looks like, read from
 * ZooKeeper (the ring) and from each live back-end (its STATS, asked twice {@code
 * --interval-ms} apart for the rates).
 */
public final class ClusterInspection {
  /** How long a connect may take (an answer's wait is its verb's: {@link Timeouts}). */
  private static final Duration CONNECT = Duration.ofSeconds(10);

  private final KvSettings kv;
  private final PrintStream out;
  private final PrintStream err;

  public ClusterInspection(KvSettings kv, PrintStream out, PrintStream err) {
    this.kv = kv;
    this.out = out;
    this.err = err;
  }

  public int ring() throws IOException {
    try (CuratorFramework zk = KvNodes.session(kv, "ring")) {
      Ring ring = read(zk);
      if (ring == null) {
        return KvCommand.EXIT_FAILED;
      }
      out.println(ring);
      ring.members().stream().sorted(Comparator.comparing(Member::id))
          .forEach(m -> out.println("  back-end " + m
              + (m.hasOwnDomain() ? " in domain " + m.domain() : "")
              + (ring.removing().contains(m.id()) ? " (down, being removed)"
              : ring.isDown(m.id()) ? " (down)"
              : ring.leaving().contains(m.id()) ? " (leaving)"
              : ring.pendingArcsOf(m.id()).isEmpty() ? ""
              : " (copying " + ring.pendingArcsOf(m.id()).size() + " arcs)")));
      for (Chain chain : ring.chains()) {
        long end = chain.range().endInclusive();
        java.util.List<String> lastChain = ring.orphans().lastChains().get(end);
        String source = ring.orphans().sources().get(end);
        out.println("  arc " + chain.range() + ": " + chain.members()
            + (chain.pending().isEmpty() ? "" : " copying to " + chain.pending())
            + (ring.orphans().lost().contains(end) ? " (lost: declared gone by an operator)"
                : lastChain != null ? " (no live member: recovered once " + lastChain
                + " are back and reported their files)"
                : source != null ? " (recovered from " + source + "'s own file)"
                : chain.isShort() ? " (short: writes refused)"
                : chain.frozen() ? " (frozen: writes refused until a join or removal settles)"
                : "")
            + sharedDomains(chain));
      }
    }
    return KvCommand.EXIT_OK;
  }

  /**
   * Said of a chain with two members in one failure domain (the ring has fewer domains than
   * replicas, or some are down): one fault of that domain takes both.
   */
  static String sharedDomains(Chain chain) {
    java.util.Map<String, Long> perDomain = new java.util.TreeMap<>();
    for (Member m : chain.members()) {
      perDomain.merge(m.domain(), 1L, Long::sum);
    }
    perDomain.values().removeIf(n -> n < 2);
    return perDomain.isEmpty() ? "" : " (domains shared: " + perDomain.keySet()
        + "; too few live domains for one member each)";
  }

  int stats(int intervalMs) throws IOException {
    try (CuratorFramework zk = KvNodes.session(kv, "stats");
        ConnectionPool pool = new ConnectionPool(CONNECT, ProtocolLimits.MAX_FRAME_BYTES,
            kv.secret())) {
      Ring ring = read(zk);
      if (ring == null) {
        return KvCommand.EXIT_FAILED;
      }
      List<Member> live = ring.members().stream().filter(m -> !ring.isDown(m.id()))
          .sorted(Comparator.comparing(Member::id)).toList();
      List<SliceStore.Registered> frontEnds = new SliceStore(zk,
          new ClusterPaths(kv.cluster())).registered();
      Map<Member, StatsReport> first = ask(pool, ring, live);
      Map<String, FrontEndStats> frontFirst = askFrontEnds(frontEnds);
      long start = System.nanoTime();
      sleep(intervalMs);
      Map<Member, StatsReport> second = ask(pool, ring, live);
      Map<String, FrontEndStats> frontSecond = askFrontEnds(frontEnds);
      double wallSeconds = (System.nanoTime() - start) / 1e9;
      out.println(ring);
      out.printf("%-10s %-16s %10s %10s %12s %10s %10s %9s %9s %9s %10s %12s %11s %12s%n",
          "back-end", "head/mid/tail/cp", "keys(head)", "keys(all)", "log bytes", "gets",
          "writes", "gets/s", "writes/s", "joules", "queries/J", "copied in", "compactions",
          "reclaimed");
      EnergyTotals energy = new EnergyTotals();
      long headKeys = 0;
      int failed = 0;
      for (Member m : live) {
        StatsReport now = second.get(m);
        if (now == null) {
          failed++;
          continue;
        }
        StatsReport then = first.getOrDefault(m, now);
        long keysAsHead = keys(now, StatsReport.Role.HEAD) + keys(now, StatsReport.Role.ALONE);
        headKeys += keysAsHead;
        double seconds = Math.max(1, now.uptimeMs() - then.uptimeMs()) / 1000.0;
        long queries = now.gets() - then.gets() + now.writes() - then.writes();
        double joules = energy.add(then, now, queries);
        out.printf("%-10s %-16s %10d %10d %12d %10d %10d %9.1f %9.1f %9s %10s %12d %11d %12d%n",
            m.id(),
            count(now, StatsReport.Role.HEAD) + count(now, StatsReport.Role.ALONE) + "/"
                + count(now, StatsReport.Role.MIDDLE) + "/" + count(now, StatsReport.Role.TAIL)
                + "/" + count(now, StatsReport.Role.COPYING),
            keysAsHead, now.arcs().stream().mapToLong(StatsReport.Arc::keys).sum(),
            now.arcs().stream().mapToLong(StatsReport.Arc::logBytes).sum(), now.gets(),
            now.writes(), (now.gets() - then.gets()) / seconds,
            (now.writes() - then.writes()) / seconds,
            joules < 0 ? "-" : String.format("%.2f", joules),
            joules <= 0 ? "-" : String.format("%.1f", queries / joules), now.bytesCopiedIn(),
            now.compactions(), now.bytesReclaimed());
      }
      ring.down().stream().sorted().forEach(id -> out.printf("%-10s (down)%n", id));
      out.println("keys in the cluster (each counted at its head): " + headKeys);
      out.println(energy.summary());
      printFrontEnds(frontFirst, frontSecond, wallSeconds);
      failed += frontEnds.size() - frontSecond.size();
      return failed == 0 ? KvCommand.EXIT_OK : KvCommand.EXIT_FAILED;
    }
  }

  /** The back-ends' joules and queries over the interval, for queries per joule. */
  private static final class EnergyTotals {
    private double joules;
    private long queries;
    private int metered;
    private boolean estimated;

    /** Adds one back-end's interval; returns its joules, or -1 when it is not metered. */
    double add(StatsReport then, StatsReport now, long backendQueries) {
      if (then.microjoules() < 0 || now.microjoules() < 0) {
        return -1;
      }
      double j = (now.microjoules() - then.microjoules()) / 1e6;
      joules += j;
      queries += backendQueries;
      metered++;
      estimated |= now.energyEstimated();
      return j;
    }

    String summary() {
      if (metered == 0) {
        return "queries per joule: not metered (set fawn.kv.energy.collector-port, or the power"
            + " model's fawn.kv.energy.idle-watts and busy-watts, on the back-ends)";
      }
      return String.format("queries per joule over the interval: %.1f (%d queries, %.2f J on %d"
          + " metered back-ends%s)", joules <= 0 ? 0 : queries / joules, queries, joules,
          metered, estimated ? "; ESTIMATED from a power model" : "");
    }
  }

  private void printFrontEnds(Map<String, FrontEndStats> first,
      Map<String, FrontEndStats> second, double seconds) {
    out.printf("%-10s %11s %8s %10s %10s %9s %10s %8s %15s%n", "front-end", "slice epoch",
        "buckets", "gets", "writes", "gets/s", "cache hits", "hit rate", "cached/capacity");
    for (Map.Entry<String, FrontEndStats> e : second.entrySet()) {
      FrontEndStats now = e.getValue();
      FrontEndStats then = first.getOrDefault(e.getKey(), now);
      out.printf("%-10s %11d %8d %10d %10d %9.1f %10d %7.0f%% %15s%n", e.getKey(),
          now.sliceEpoch(), now.bucketsServed(), now.gets(), now.puts() + now.deletes(),
          (now.gets() - then.gets()) / seconds, now.cacheHits(), 100 * now.hitRate(),
          now.cacheEntries() + "/" + now.cacheCapacity());
    }
  }

  /** The STATS answer of each registered front-end; a silent one is reported on err. */
  private Map<String, FrontEndStats> askFrontEnds(List<SliceStore.Registered> frontEnds) {
    Map<String, FrontEndStats> stats = new java.util.TreeMap<>();
    for (SliceStore.Registered r : frontEnds) {
      SliceMap.Endpoint e = r.endpoint();
      try (Connection c = Connection.open(new InetSocketAddress(e.host(), e.port()), CONNECT,
          ProtocolLimits.MAX_FRAME_BYTES, kv.secret())) {
        Frame reply = c.call(MessageType.STATS, 0, new byte[0], kv.timeouts().of(Verb.STATS));
        if (reply.type() != MessageType.VALUE) {
          throw new IOException(MessageType.name(reply.type()) + " "
              + MessageType.messageOf(reply));
        }
        stats.put(e.name(), FrontEndStats.decode(reply));
      } catch (IOException ex) {
        err.println("fawn kv: no stats from front-end " + e + ": " + ex.getMessage());
      }
    }
    return stats;
  }

  private Map<Member, StatsReport> ask(ConnectionPool pool, Ring ring, List<Member> live) {
    return statsOf(pool, ring, live, err, kv.timeouts());
  }

  /**
   * The STATS answer of each of {@code live}, each awaited as {@code timeouts} say; a silent
   * one is reported on {@code err}.
   */
  public static Map<Member, StatsReport> statsOf(ConnectionPool pool, Ring ring, List<Member> live,
      PrintStream err, Timeouts timeouts) {
    Map<Member, StatsReport> reports = new LinkedHashMap<>();
    for (Member m : live) {
      try {
        Frame reply = pool.to(m).call(MessageType.STATS, ring.epoch(), null,
            timeouts.of(Verb.STATS));
        if (reply.type() != MessageType.VALUE) {
          throw new IOException(MessageType.name(reply.type()) + " "
              + MessageType.messageOf(reply));
        }
        reports.put(m, StatsReport.decode(reply));
      } catch (IOException e) {
        err.println("fawn kv: no stats from back-end " + m + ": " + e.getMessage());
      }
    }
    return reports;
  }

  private Ring read(CuratorFramework zk) throws IOException {
    RingStore store = new RingStore(zk, new ClusterPaths(kv.cluster()));
    var stored = store.read(store.ringHash());
    if (stored.isEmpty()) {
      err.println("fawn kv: cluster '" + kv.cluster() + "' has no ring yet (fewer than "
          + "fawn.kv.bootstrap-backends back-ends registered?)");
      return null;
    }
    return stored.get().ring();
  }

  private static long count(StatsReport report, StatsReport.Role role) {
    return report.arcs().stream().filter(a -> a.role() == role).count();
  }

  private static long keys(StatsReport report, StatsReport.Role role) {
    return report.arcs().stream().filter(a -> a.role() == role)
        .mapToLong(StatsReport.Arc::keys).sum();
  }

  private static void sleep(int ms) throws IOException {
    try {
      Thread.sleep(ms); // the rates are the change over this interval
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted between the two samples", e);
    }
  }
}
