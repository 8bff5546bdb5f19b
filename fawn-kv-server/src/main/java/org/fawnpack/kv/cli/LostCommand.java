package org.fawnpack.kv.cli;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.coord.LostArcs;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;

/**
 * {@code fawn kv lost --arc END}: declares an arc every member of which went down gone for good
 * (no member of its last chain will bring its file back), so its requests fail by name and
 * the other arcs' copies go on without it; waits until the ring says so, or the coordinator
 * refuses (the arc is not waiting for its members), or the wait ends, looking again whenever
 * ZooKeeper says the ring or the declaration changed ({@link ChangeWait}).
 */
final class LostCommand {
  private final PrintStream out;
  private final PrintStream err;

  LostCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(KvSettings kv, KvCommand.CommandLine line) throws IOException {
    String arc = line.required("--arc");
    if (!arc.matches("[0-9a-f]{16}")) {
      throw new IllegalArgumentException("--arc wants the arc's end as ./fawn kv ring prints"
          + " it (16 hex digits), got '" + arc + "'");
    }
    long end = Long.parseUnsignedLong(arc, 16);
    int timeoutSeconds = line.intOption("--timeout-s", 60, 1, 86_400);
    line.noPositionals();
    ClusterPaths paths = new ClusterPaths(kv.cluster());
    try (CuratorFramework zk = KvNodes.session(kv, "lost")) {
      RingStore store = new RingStore(zk, paths);
      LostArcs lost = new LostArcs(zk, paths);
      lost.declare(end);
      out.println("declared the arc ending at " + arc + " lost (" + paths.lostArcs() + "/"
          + arc + ")");
      RingHash hash = store.ringHash();
      try (ChangeWait wait = new ChangeWait(timeoutSeconds)
          .watching(changed -> store.watch(hash, ring -> changed.run()))
          .watching(changed -> lost.watch(end, changed))) {
        do {
          String answer = lost.all().getOrDefault(end, "");
          if (!answer.isEmpty()) {
            err.println("fawn kv: the coordinator " + answer);
            return KvCommand.EXIT_FAILED;
          }
          Ring now = store.read(hash).map(RingStore.Versioned::ring).orElse(null);
          if (now != null && now.orphans().lost().contains(end)) {
            out.println("arc " + now.chainFor(end).range() + " is lost in ring epoch "
                + now.epoch() + ": its requests fail by name; the other arcs heal without it");
            return KvCommand.EXIT_OK;
          }
        } while (wait.awaitChange());
      }
      err.println("fawn kv: the arc ending at " + arc + " is not lost within " + timeoutSeconds
          + " s (is a coordinator running? ./fawn kv ring shows the arc)");
      return KvCommand.EXIT_FAILED;
    }
  }
}
