package org.fawnpack.kv.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.coord.MemberRequests;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;

/**
 * {@code fawn kv leave --id ID}: asks the coordinator to let a back-end hand its arcs over and
 * leave, then follows the ring until it has left (or the leave is refused, or the wait ends;
 * the leave goes on without this command).
 */
final class LeaveCommand {
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
      Optional<Ring> ring = RequestFollower.ringWithMember(store, id, kv.cluster(), err);
      if (ring.isEmpty()) {
        return KvCommand.EXIT_FAILED;
      }
      MemberRequests leaves = MemberRequests.leaves(zk, paths);
      leaves.request(id);
      out.println("asked for back-end " + id + " to leave (" + paths.leave(id) + ")");
      boolean left = RequestFollower.follow(leaves, id, store, timeoutSeconds, err,
          now -> now.isDown(id) && !now.leaving().contains(id), now -> {
            if (now.leaving().contains(id)) {
              out.println("epoch " + now.epoch() + ": " + id + " is leaving; "
                  + (now.pending().isEmpty() ? "its replacements serve"
                  : "copying its arcs: " + now.pending().keySet()));
            }
          });
      if (!left) {
        return KvCommand.EXIT_FAILED;
      }
      out.println("back-end " + id + " has left (ring epoch "
          + RequestFollower.read(store).orElseThrow().epoch() + "); it serves nothing and has"
          + " deleted its arc files: stop its process. It is not taken back under this id; to"
          + " use the node again, start it with a new --id");
      return KvCommand.EXIT_OK;
    }
  }
}
