package org.fawnpack.benchmarks;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.fawnpack.benchmarks.ycsb.FawnKvYcsbClient;
import org.fawnpack.benchmarks.ycsb.YcsbRun;
import org.fawnpack.kv.loopback.LoopbackCluster;

/**
 * One YCSB cell against a {@link LoopbackCluster}, with the CPU time of each part: the YCSB
 * client's JVM (less {@code startCpu}, what one that makes no operation uses), this JVM (the
 * front-end, with ZooKeeper) and the back-end JVMs, over the cell.
 */
record FawnCell(YcsbRun.Result result, double clientCpu, double frontEndCpu,
    double backEndCpu) {

  static FawnCell run(LoopbackCluster cluster, int threads, Map<String, String> properties,
      Path log, double startCpu) throws Exception {
    double frontEnd = CpuTime.seconds(List.of(ProcessHandle.current()));
    double backEnds = CpuTime.seconds(cluster.backendProcesses().values());
    YcsbRun.Result result = YcsbRun.run(FawnKvYcsbClient.class, false, threads, properties,
        log);
    frontEnd = CpuTime.seconds(List.of(ProcessHandle.current())) - frontEnd;
    backEnds = CpuTime.seconds(cluster.backendProcesses().values()) - backEnds;
    return new FawnCell(result, result.clientCpuSeconds() - startCpu, frontEnd, backEnds);
  }

  /** CPU µs per operation of every process together. */
  double allMicros() {
    return 1e6 * (clientCpu + frontEndCpu + backEndCpu) / result.operations();
  }

  /** Its throughput and its servers' CPU (front-end JVM and back-ends) per operation. */
  QueriesPerJoule.Measured measured() {
    return new QueriesPerJoule.Measured(result.opsPerSecond(),
        (frontEndCpu + backEndCpu) / result.operations());
  }

  /** "client | front-end | back-ends | all", µs per operation. */
  String cpuCells() {
    double ops = result.operations();
    return String.format(Locale.ROOT, "%.0f | %.0f | %.0f | %.0f", 1e6 * clientCpu / ops,
        1e6 * frontEndCpu / ops, 1e6 * backEndCpu / ops, allMicros());
  }
}
