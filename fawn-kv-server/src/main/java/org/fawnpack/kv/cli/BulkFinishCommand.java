package org.fawnpack.kv.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.bulk.BulkAttach;
import org.fawnpack.kv.bulk.BulkDrivers;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.zookeeper.BulkLoadStore;
import org.fawnpack.kv.zookeeper.ClusterPaths;

/**
 * {@code fawn kv bulk-finish [--job JOB] [--timeout-s S]}: finishes committed bulk loads whose
 * driver died after the commit (their arcs are gated until then): gates, applies and releases
 * each as its driver would have ({@link BulkAttach#finish}); safe while the driver still runs.
 */
final class BulkFinishCommand {
  private final PrintStream out;
  private final PrintStream err;

  BulkFinishCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(KvSettings kv, KvCommand.CommandLine line) throws IOException {
    String job = line.option("--job", null);
    int timeoutSeconds = line.intOption("--timeout-s", 600, 1, 86_400);
    line.noPositionals();
    ClusterPaths paths = new ClusterPaths(kv.cluster());
    try (CuratorFramework zk = KvNodes.session(kv, "bulk-finish");
        ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(10),
            ProtocolLimits.MAX_FRAME_BYTES, kv.secret())) {
      BulkLoadStore loads = new BulkLoadStore(zk, paths);
      Map<String, Set<Long>> committed = loads.committed();
      if (job != null) {
        if (!committed.containsKey(job)) {
          err.println("fawn kv: no committed bulk load " + job + " at " + paths.bulkLoad(job)
              + " (done already, or it never committed: nothing of it is visible)");
          return KvCommand.EXIT_FAILED;
        }
        committed = Map.of(job, committed.get(job));
      }
      if (committed.isEmpty()) {
        out.println("no committed bulk load is waiting to be finished");
        return KvCommand.EXIT_OK;
      }
      BulkAttach driver = BulkDrivers.of(zk, paths, pool, Duration.ofSeconds(timeoutSeconds),
          kv.backoffs().bulk()).answersWithin(kv.timeouts());
      for (Map.Entry<String, Set<Long>> load : committed.entrySet()) {
        driver.finish(load.getKey(), load.getValue());
        out.println("bulk load " + load.getKey() + " is visible on its " + load.getValue().size()
            + " arcs");
      }
      return KvCommand.EXIT_OK;
    }
  }
}
