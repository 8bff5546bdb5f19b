package org.fawnpack.kv.coord;

import java.io.IOException;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;

/**
 * Planned leaves as znodes: {@code leave/<id>} (persistent) asks the coordinator to let
 * back-end {@code id} hand its arcs over and leave. The coordinator writes "refused: why" into
 * it when the leave cannot be made (too few hosts would remain, no such member). The request
 * stays after the leave: a back-end that left is not taken back under its id.
 */
public final class LeaveRequests {
  private final OperatorRequests requests;

  public LeaveRequests(CuratorFramework zk, ClusterPaths paths) {
    this.requests = new OperatorRequests(zk, paths.leaves());
  }

  /** Asks for back-end {@code id} to leave; asking again clears an earlier refusal. */
  public void request(String id) throws IOException {
    requests.request(id);
  }

  /** Every request, id to the coordinator's answer ("" while none, else "refused: why"). */
  public Map<String, String> all() throws IOException {
    return requests.all();
  }

  /** The coordinator's refusal of {@code id}'s leave, with the reason. */
  void refuse(String id, String why) throws IOException {
    requests.refuse(id, why);
  }

  static boolean refused(String answer) {
    return OperatorRequests.refused(answer);
  }

  /** Whether {@code id} asked to leave and was not refused (among {@link #all} answers). */
  static boolean granted(Map<String, String> requests, String id) {
    String answer = requests.get(id);
    return answer != null && !refused(answer);
  }
}
