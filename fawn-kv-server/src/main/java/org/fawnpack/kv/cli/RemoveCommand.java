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
 * {@code fawn kv remove --id ID}: asks the coordinator to remove a down back-end for good (its
 * virtual nodes go, the arcs they bound merge into their successors'), then follows the ring
 * until it is gone (or the removal is refused, or the wait ends; the removal goes on without
 * this command). A live back-end is refused here: it leaves ({@code fawn kv leave}), or is
 * stopped first.
 */
final class RemoveCommand {
  private final PrintStream out;
  private final PrintStream err;

  RemoveCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(KvSettings kv, KvCommand.CommandLine line) throws IOException {
    String id = line.required("--id");
    int timeoutSeconds = line.intOption("--timeout-s", 600, 1, 86_400);
    line.noPositionals();
    ClusterPaths paths = new ClusterPaths(kv.cluster());
    try (CuratorFramework zk = KvNodes.session(kv, "remove")) {
      RingStore store = new RingStore(zk, paths);
      Optional<Ring> ring = RequestFollower.ringWithMember(store, id, kv.cluster(), err);
      if (ring.isEmpty()) {
        return KvCommand.EXIT_FAILED;
      }
      if (!ring.get().isDown(id)) {
        err.println("fawn kv: back-end " + id + " is live (" + ring.get() + "): only a down"
            + " back-end is removed; to take a live one out, use 'fawn kv leave --id " + id
            + "', or stop its process and wait until the ring marks it down");
        return KvCommand.EXIT_FAILED;
      }
      MemberRequests removals = MemberRequests.removals(zk, paths);
      removals.request(id);
      out.println("asked for back-end " + id + " to be removed (" + paths.removal(id) + ")");
      boolean removed = RequestFollower.follow(removals, id, store, timeoutSeconds, err,
          now -> now.member(id) == null, now -> {
            if (now.removing().contains(id)) {
              out.println("epoch " + now.epoch() + ": " + id + " is being removed; "
                  + now.frozen().size() + " arcs frozen until their writes settle");
            }
          });
      if (!removed) {
        return KvCommand.EXIT_FAILED;
      }
      Ring now = RequestFollower.read(store).orElseThrow();
      out.println("back-end " + id + " is removed (ring epoch " + now.epoch() + ", "
          + now.chains().size() + " arcs); it is not taken back under this id: to use the node"
          + " again, start it with a new --id and an empty data directory");
      return KvCommand.EXIT_OK;
    }
  }
}
