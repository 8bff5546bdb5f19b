package org.fawnpack.kv.coord;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.zookeeper.ClusterPaths;

/**
 * An operator's declaration that an arc every member of which went down is gone for good
 * ({@code ./fawn kv lost --arc END}): {@code lost/<arc-end-hex>}, persistent. The coordinator
 * marks the arc lost in the next epoch (its requests fail by name; the other arcs' copies go
 * on without it), or writes "refused: why" into the request when the arc is not waiting for its
 * members.
 */
public final class LostArcs {
  private final OperatorRequests requests;

  public LostArcs(CuratorFramework zk, ClusterPaths paths) {
    this.requests = new OperatorRequests(zk, paths.lostArcs());
  }

  /** Declares the arc ending at {@code arcEnd} lost. */
  public void declare(long arcEnd) throws IOException {
    requests.request(String.format("%016x", arcEnd));
  }

  /** Runs {@code changed} when the arc is declared lost or the declaration answered. */
  public java.io.Closeable watch(long arcEnd, Runnable changed) {
    return requests.watch(String.format("%016x", arcEnd), changed);
  }

  /** Arc end to the coordinator's answer ("" while none, else "refused: why"). */
  public Map<Long, String> all() throws IOException {
    Map<Long, String> all = new TreeMap<>(Long::compareUnsigned);
    requests.all().forEach((name, answer) -> {
      if (name.matches("[0-9a-f]{16}")) {
        all.put(Long.parseUnsignedLong(name, 16), answer);
      }
    });
    return all;
  }

  void refuse(long arcEnd, String why) throws IOException {
    requests.refuse(String.format("%016x", arcEnd), why);
  }

  public static boolean refused(String answer) {
    return OperatorRequests.refused(answer);
  }
}
