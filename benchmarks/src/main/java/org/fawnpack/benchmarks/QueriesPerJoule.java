package org.fawnpack.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * FAWN's headline figure, estimated side by side: queries per joule of each store in a YCSB
 * cell, from its measured throughput and its servers' CPU time under one power model for all
 * (the paper's Edison node: 1.40 W idle, 1.68 W busy, 2 cores; the figures the loopback
 * cluster's back-ends are metered by). Each store is counted as if it ran alone on one such
 * node: {@code joules per op = idle watts / ops per second + CPU seconds per op × (busy − idle)
 * / cores}. Clients are left out (YCSB's JVM is the workload, not the store), so a store whose
 * client does more of the work (FAWN-KV's direct reads route in the client) looks a little
 * better than it is; the CPU table beside it has the clients' share.
 */
final class QueriesPerJoule {
  static final double IDLE_WATTS = 1.40;
  static final double BUSY_WATTS = 1.68;
  static final int CORES = 2;

  /** What one store did in one cell: operations per second and its servers' CPU per op. */
  record Measured(double opsPerSecond, double serverCpuSecondsPerOp) {}

  private final List<String> rows = new ArrayList<>();

  /** Queries per joule of a model node serving {@code m}'s rate at its CPU cost per op. */
  static double estimate(Measured m) {
    if (!(m.opsPerSecond() > 0) || !(m.serverCpuSecondsPerOp() >= 0)) {
      throw new IllegalArgumentException("need ops/s > 0 and CPU per op >= 0: " + m);
    }
    double joulesPerOp = IDLE_WATTS / m.opsPerSecond()
        + m.serverCpuSecondsPerOp() * (BUSY_WATTS - IDLE_WATTS) / CORES;
    return 1 / joulesPerOp;
  }

  /** One row; {@code redis} and {@code etcd} null when not installed. */
  void add(String workload, String distribution, Measured fawnKv, Measured direct,
      Measured redis, Measured etcd) {
    double directQpj = estimate(direct);
    rows.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s |", workload,
        distribution, cell(fawnKv), cell(direct), cell(redis), cell(etcd),
        redis == null ? "–" : String.format(Locale.ROOT, "%.2f", directQpj / estimate(redis))));
  }

  private static String cell(Measured m) {
    return m == null ? "–" : String.format(Locale.ROOT, "%,.0f", estimate(m));
  }

  String report() {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "%nQueries per joule,"
        + " ESTIMATED from each cell's throughput and its servers' CPU time under one power"
        + " model (the paper's Edison: %.2f W idle, %.2f W busy, %d cores), each store counted"
        + " as if alone on one such node: J per op = idle W ÷ ops/s + CPU s per op × (busy −"
        + " idle) W ÷ cores. Servers: FAWN-KV's front-end JVM and back-ends, redis-server,"
        + " etcd's three members; clients left out.%n%n", IDLE_WATTS, BUSY_WATTS, CORES));
    out.append("| workload | distribution | FAWN-KV | FAWN-KV direct | redis | etcd |"
        + " direct ÷ redis |\n|---|---|---|---|---|---|---|\n");
    rows.forEach(r -> out.append(r).append('\n'));
    return out.toString();
  }
}
