package org.fawnpack.kv.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.coord.ClusterPaths;
import org.fawnpack.kv.coord.LeaveRequests;
import org.fawnpack.kv.coord.RingStore;
import org.fawnpack.kv.ring.Ring;

/**
 * {@code fawn kv leave --id ID}: asks the coordinator to let a back-end hand its arcs over and
 * leave, then follows the ring until it has left (or the leave is refused, or the wait ends;
 * the leave goes on without this command).
 */
final class LeaveCommand {
  private static final long POLL_MS = 200;

  private final PrintStream out;
  private final PrintStream err;

  LeaveCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(KvSettings kv, KvCommand.CommandLine line) throws IOException {
    String id = line.required("--id");
    int timeoutSeconds = line.intOption("--timeout-s", 600, 1, 86_400);
    line.noPositionals();
    ClusterPaths paths = new ClusterPaths(kv.cluster());
    try (CuratorFramework zk = KvNodes.session(kv, "leave")) {
      RingStore store = new RingStore(zk, paths);
      Optional<Ring> ring = read(store);
      if (ring.isEmpty() || ring.get().member(id) == null) {
        err.println("fawn kv: back-end " + id + " is not in the ring of cluster '"
            + kv.cluster() + "'" + ring.map(r -> " (" + r + ")").orElse(" (no ring yet)"));
        return KvCommand.EXIT_FAILED;
      }
      LeaveRequests leaves = new LeaveRequests(zk, paths);
      leaves.request(id);
      out.println("asked for back-end " + id + " to leave (" + paths.leave(id) + ")");
      long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
      long shownEpoch = -1;
      while (System.nanoTime() < deadline) {
        String answer = leaves.all().getOrDefault(id, "");
        if (!answer.isEmpty()) {
          err.println("fawn kv: the coordinator " + answer);
          return KvCommand.EXIT_FAILED;
        }
        Ring now = read(store).orElseThrow();
        if (now.isDown(id) && !now.leaving().contains(id)) {
          out.println("back-end " + id + " has left (ring epoch " + now.epoch() + "); it serves"
              + " nothing and has deleted its arc files: stop its process. It is not taken back"
              + " under this id; to use the node again, start it with a new --id");
          return KvCommand.EXIT_OK;
        }
        if (now.leaving().contains(id) && now.epoch() != shownEpoch) {
          shownEpoch = now.epoch();
          out.println("epoch " + now.epoch() + ": " + id + " is leaving; "
              + (now.pending().isEmpty() ? "its replacements serve"
              : "copying its arcs: " + now.pending().keySet()));
        }
        sleep();
      }
      err.println("fawn kv: back-end " + id + " has not left within " + timeoutSeconds
          + " s; the leave goes on (./fawn kv ring shows it)");
      return KvCommand.EXIT_FAILED;
    }
  }

  private static Optional<Ring> read(RingStore store) throws IOException {
    return store.read(store.ringHash()).map(RingStore.Versioned::ring);
  }

  private static void sleep() throws IOException {
    try {
      Thread.sleep(POLL_MS); // polls the ring: a leave takes seconds, one look per 0.2 s is plenty
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for the leave", e);
    }
  }
}
