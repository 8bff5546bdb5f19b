package org.fawnpack.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.fawnpack.benchmarks.ycsb.EtcdCluster;
import org.fawnpack.benchmarks.ycsb.EtcdYcsbClient;
import org.fawnpack.benchmarks.ycsb.YcsbRun;

/**
 * The YCSB benchmark's durability-matched peer: etcd, three members on loopback, each syncing
 * its log before it acknowledges, as a FAWN-KV chain acknowledges a put once every member forced
 * it. Runs the same load and cells as {@link KvYcsbPart} right after FAWN-KV's, and writes their
 * table with the write targets (load and A at least twice etcd's ops/s, update p99 at
 * most 2 ms).
 */
final class EtcdPeer {
  private final int threads;
  private final Path logs;
  private final List<String> rows = new ArrayList<>();
  private final List<Double> writeRatios = new ArrayList<>();
  private final List<Double> updateP99s = new ArrayList<>();
  private Map<String, String> properties;
  private EtcdCluster etcd;
  private double startCpu;

  EtcdPeer(int threads, Path logs) {
    this.threads = threads;
    this.logs = logs;
  }

  /**
   * Loads the records into {@code cluster}, after an unrecorded load of other records
   * ({@code warmLoad}), beside FAWN-KV's load {@code fawn}.
   */
  void load(EtcdCluster cluster, Map<String, String> common, Map<String, String> warmLoad,
      YcsbRun.Result fawn) throws Exception {
    etcd = cluster;
    properties = new HashMap<>(common);
    properties.put(EtcdYcsbClient.ENDPOINTS, String.join(",", cluster.endpoints()));
    YcsbRun.run(EtcdYcsbClient.class, true, threads, with(warmLoad),
        logs.resolve("etcd-warm-load.log"));
    YcsbRun.Result load = YcsbRun.run(EtcdYcsbClient.class, true, threads, properties,
        logs.resolve("etcd-load.log"));
    double ratio = fawn.opsPerSecond() / load.opsPerSecond();
    writeRatios.add(ratio);
    rows.add(String.format(Locale.ROOT, "| load | – | %,.0f | %s | %,.0f | – | %s | %.2f | – |",
        fawn.opsPerSecond(), p99(fawn, "INSERT"), load.opsPerSecond(), p99(load, "INSERT"),
        ratio));
  }

  /** Warms the client's and members' JVM-free paths, and measures a client's start CPU. */
  void warm(Map<String, String> warm) throws Exception {
    YcsbRun.run(EtcdYcsbClient.class, false, threads, with(warm),
        logs.resolve("etcd-warm-up.log"));
    startCpu = YcsbRun.run(EtcdYcsbClient.class, false, threads,
        with(Map.of("operationcount", "0")), logs.resolve("etcd-start.log")).clientCpuSeconds();
  }

  /**
   * One cell of workload {@code workload}, beside FAWN-KV's (through the front-end); etcd's
   * throughput and its members' CPU per operation.
   */
  QueriesPerJoule.Measured cell(String workload, String distribution, Map<String, String> mix,
      FawnCell fawn)
      throws Exception {
    double membersCpu = CpuTime.seconds(etcd.processes());
    YcsbRun.Result e = YcsbRun.run(EtcdYcsbClient.class, false, threads, with(mix),
        logs.resolve("etcd-" + workload + "-" + distribution + ".log"));
    membersCpu = CpuTime.seconds(etcd.processes()) - membersCpu;
    double ratio = fawn.result().opsPerSecond() / e.opsPerSecond();
    if (workload.equals("A")) {
      writeRatios.add(ratio);
      updateP99s.add(fawn.result().get("UPDATE", "99thPercentileLatency(us)"));
    }
    double ops = e.operations();
    double client = e.clientCpuSeconds() - startCpu;
    rows.add(String.format(Locale.ROOT, "| %s | %s | %,.0f | %s | %,.0f | %s | %s | %.2f |"
        + " %.0f / %.0f / %.0f |", workload, distribution, fawn.result().opsPerSecond(),
        p99(fawn.result(), "UPDATE"), e.opsPerSecond(), p99(e, "READ"), p99(e, "UPDATE"), ratio,
        1e6 * client / ops, 1e6 * membersCpu / ops, 1e6 * (client + membersCpu) / ops));
    return new QueriesPerJoule.Measured(e.opsPerSecond(), membersCpu / ops);
  }

  /** The etcd table and its targets, or why it is missing. */
  String report(Optional<Path> program) {
    if (program.isEmpty()) {
      return "\nAgainst etcd: not measured, etcd is not installed (`apt-get install"
          + " etcd-server`).\n";
    }
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%nAgainst etcd (%s, 3.4 from Debian): three members"
        + " on 127.0.0.1, each syncing its log before it acknowledges (the default), reads"
        + " linearizable, through our binding over etcd's JSON gateway (`EtcdYcsbClient`: its"
        + " CPU includes the gateway's translation to gRPC inside each member). The same"
        + " records, threads and cell length, each etcd cell right after FAWN-KV's. FAWN-KV's"
        + " columns are its operations through the front-end.%n%n", program.get()));
    out.append("| workload | distribution | FAWN-KV ops/s | FAWN-KV update p99 | etcd ops/s |"
        + " etcd read p99 | etcd update p99 | FAWN-KV ops/s ÷ etcd | etcd CPU µs per op:"
        + " client / members / all |\n|---|---|---|---|---|---|---|---|---|\n");
    rows.forEach(r -> out.append(r).append('\n'));
    double worstRatio = writeRatios.stream().mapToDouble(Double::doubleValue).min()
        .orElse(Double.NaN);
    double worstP99 = updateP99s.stream().mapToDouble(Double::doubleValue).max()
        .orElse(Double.NaN);
    out.append(String.format(Locale.ROOT, "%nTargets (issue 32): load and A ≥ 2× etcd's ops/s"
        + " at the same durability — %s (lowest %.2f×); FAWN-KV's update p99 on A ≤ 2 ms — %s"
        + " (highest %,.0f µs).%n", worstRatio >= 2 ? "met" : "NOT met", worstRatio,
        worstP99 <= 2_000 ? "met" : "NOT met", worstP99));
    return out.toString();
  }

  private Map<String, String> with(Map<String, String> more) {
    Map<String, String> all = new HashMap<>(properties);
    all.putAll(more);
    return all;
  }

  private static String p99(YcsbRun.Result result, String operation) {
    double p99 = result.get(operation, "99thPercentileLatency(us)");
    return p99 == 0 ? "–" : String.format(Locale.ROOT, "%,.0f", p99);
  }
}
