package org.fawnpack.kv.coord;

import java.io.IOException;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.zookeeper.ClusterPaths;

/**
 * An operator's requests about members as persistent znodes, one per back-end: planned leaves
 * ({@code leave/<id>}: a live member hands its arcs over, then leaves) and removals for good
 * ({@code remove/<id>}: a down member's virtual nodes go, the arcs they bound merge; asked by
 * {@code fawn kv remove} or by the coordinator after {@code fawn.kv.down-grace-ms}). The
 * coordinator writes "refused: why" into one it cannot carry out. A request stays after it is
 * carried out: a back-end that left or was removed is not taken back under its id.
 */
public final class MemberRequests {
  private final OperatorRequests requests;

  private MemberRequests(CuratorFramework zk, String parent) {
    this.requests = new OperatorRequests(zk, parent);
  }

  /** Requests to leave ({@code fawn kv leave}). */
  public static MemberRequests leaves(CuratorFramework zk, ClusterPaths paths) {
    return new MemberRequests(zk, paths.leaves());
  }

  /** Requests to remove for good ({@code fawn kv remove}, or a member down too long). */
  public static MemberRequests removals(CuratorFramework zk, ClusterPaths paths) {
    return new MemberRequests(zk, paths.removals());
  }

  /** Asks for back-end {@code id}; asking again clears an earlier refusal. */
  public void request(String id) throws IOException {
    requests.request(id);
  }

  /** Every request, id to the coordinator's answer ("" while none, else "refused: why"). */
  public Map<String, String> all() throws IOException {
    return requests.all();
  }

  /** Runs {@code changed} when {@code id}'s request is made or answered (a watch). */
  public java.io.Closeable watch(String id, Runnable changed) {
    return requests.watch(id, changed);
  }

  /** The coordinator's refusal of {@code id}'s request, with the reason. */
  void refuse(String id, String why) throws IOException {
    requests.refuse(id, why);
  }

  static boolean refused(String answer) {
    return OperatorRequests.refused(answer);
  }

  /** Whether {@code id} was asked for and not refused (among {@link #all} answers). */
  static boolean granted(Map<String, String> requests, String id) {
    String answer = requests.get(id);
    return answer != null && !refused(answer);
  }
}
