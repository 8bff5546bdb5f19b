package org.fawnpack.benchmarks;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fawnpack.kv.loopback.LoopbackCluster;
import org.fawnpack.kv.loopback.LoopbackWorkload;

/**
 * Front-end routing: the gets per second one front-end passes to 4 back-ends as each client
 * keeps more requests in flight on its one connection (pipelined, matched by request id), the
 * cache off so every get is routed. Writes the "fawn-kv-routing" section of docs/benchmarks.md.
 */
final class KvRoutingPart {
  static final String BEGIN = "<!-- BEGIN fawn-kv-routing (written by KvClusterBenchmark) -->";
  static final String END = "<!-- END fawn-kv-routing -->";
  private static final int[] IN_FLIGHT = {1, 4, 16, 64, 256};

  private KvRoutingPart() {}

  static void run(KvClusterOptions options) throws Exception {
    Path dir = options.dir().resolve("routing");
    int keys = options.keys();
    int clients = options.clients();
    int seconds = options.seconds();
    String command = "./fawn bench-kv-cluster --part routing --keys " + keys + " --seconds "
        + seconds + " --clients " + clients;
    Instant started = Instant.now();
    double loadBefore = Machine.loadAverage();
    List<String> rows = new ArrayList<>();
    double loadRate;
    long failed = 0;
    try (LoopbackCluster cluster = LoopbackCluster.start(dir, 4, 1, Map.of())) {
      cluster.frontEnds().get(0).resizeCache(0);
      LoopbackWorkload workload = new LoopbackWorkload(cluster.frontEndAddresses(),
          cluster.secret());
      loadRate = workload.load(keys, 100, 4);
      workload.gets(r -> r.nextInt(keys), clients, 16, seconds); // warm-up, not reported
      double first = 0;
      for (int inFlight : IN_FLIGHT) {
        LoopbackWorkload.Gets run = workload.gets(r -> r.nextInt(keys), clients, inFlight,
            seconds);
        failed += run.failed();
        first = first == 0 ? run.perSecond() : first;
        String row = String.format(Locale.ROOT, "| %d | %,d | %,.0f | %.2f |", inFlight,
            inFlight * clients, run.perSecond(), run.perSecond() / first);
        System.out.println(row);
        rows.add(row);
      }
    }
    double loadAfter = Machine.loadAverage();
    StringBuilder report = new StringBuilder();
    report.append("### FAWN-KV cluster: front-end routing with pipelining\n\n");
    report.append(String.format(Locale.ROOT, "Ran %s on %s, `%s`; load average %.2f before,"
        + " %.2f after. One front-end (cache off: every get routed to a tail) before 4"
        + " back-ends as child JVMs on 127.0.0.1–.4, %,d keys of 100 bytes (loaded at %,.0f"
        + " puts/s), %d client threads in the benchmark's JVM, uniform keys, %d s per row"
        + " after a warm-up. Each client sends a batch of gets at once on its connection"
        + " (`getAll`) and the next batch once all are answered.%n%n",
        started.truncatedTo(ChronoUnit.SECONDS), Machine.describe(), command, loadBefore,
        loadAfter, keys, loadRate, clients, seconds));
    report.append("| gets in flight per client | in flight in all | gets/s | ÷ one in flight"
        + " |\n|---|---|---|---|\n");
    rows.forEach(r -> report.append(r).append('\n'));
    report.append(String.format(Locale.ROOT, "%nGets that failed, all rows: %,d. (A report,"
        + " no target: clients, front-end and back-ends share this machine's two cores.)%n",
        failed));
    System.out.println(report);
    ReportSections.write(Path.of("docs/benchmarks.md"), BEGIN, END,
        BEGIN + "\n" + report + END + "\n");
  }
}
