package org.fawnpack.kv.coord;

import java.io.IOException;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;

/**
 * Removals for good as znodes: {@code remove/<id>} (persistent) asks the coordinator to take
 * down back-end {@code id} out of the ring (its virtual nodes go, the arcs they bound merge).
 * The coordinator writes "refused: why" into it when it cannot (not down, no such member).
 * The request stays afterwards: a removed back-end is not taken back under its id.
 */
public final class RemovalRequests {
  private final OperatorRequests requests;

  public RemovalRequests(CuratorFramework zk, ClusterPaths paths) {
    this.requests = new OperatorRequests(zk, paths.removals());
  }

  /** Asks for back-end {@code id} to be removed; asking again clears an earlier refusal. */
  public void request(String id) throws IOException {
    requests.request(id);
  }

  /** Every request, id to the coordinator's answer ("" while none, else "refused: why"). */
  public Map<String, String> all() throws IOException {
    return requests.all();
  }

  void refuse(String id, String why) throws IOException {
    requests.refuse(id, why);
  }

  static boolean refused(String answer) {
    return OperatorRequests.refused(answer);
  }

  /** Whether {@code id} was asked to be removed and not refused (among {@link #all}). */
  static boolean granted(Map<String, String> requests, String id) {
    String answer = requests.get(id);
    return answer != null && !refused(answer);
  }
}
