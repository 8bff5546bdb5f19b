package org.fawnpack.kv.coord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Planned leaves as znodes: {@code leave/<id>} (persistent) asks the coordinator to let
 * back-end {@code id} hand its arcs over and leave. The coordinator writes "refused: why" into
 * it when the leave cannot be made (too few hosts would remain, no such member). The request
 * stays after the leave: a back-end that left is not taken back under its id.
 */
public final class LeaveRequests {
  static final String REFUSED = "refused: ";

  private final CuratorFramework zk;
  private final ClusterPaths paths;

  public LeaveRequests(CuratorFramework zk, ClusterPaths paths) {
    this.zk = zk;
    this.paths = paths;
  }

  /** Asks for back-end {@code id} to leave; asking again clears an earlier refusal. */
  public void request(String id) throws IOException {
    try {
      zk.create().orSetData().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
          .forPath(paths.leave(id), new byte[0]);
    } catch (Exception e) {
      throw Znodes.failure("cannot write " + paths.leave(id), e);
    }
  }

  /** Every request, id to the coordinator's answer ("" while none, else "refused: why"). */
  public Map<String, String> all() throws IOException {
    Map<String, String> requests = new TreeMap<>();
    try {
      for (String id : zk.getChildren().forPath(paths.leaves())) {
        try {
          requests.put(id, new String(zk.getData().forPath(paths.leave(id)),
              StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException gone) {
          // withdrawn while listed: not a request any more
        }
      }
    } catch (KeeperException.NoNodeException none) {
      return requests;
    } catch (Exception e) {
      throw Znodes.failure("cannot list " + paths.leaves(), e);
    }
    return requests;
  }

  /** The coordinator's refusal of {@code id}'s leave, with the reason. */
  void refuse(String id, String why) throws IOException {
    try {
      zk.setData().forPath(paths.leave(id), (REFUSED + why).getBytes(StandardCharsets.UTF_8));
    } catch (KeeperException.NoNodeException withdrawn) {
      // nothing to answer
    } catch (Exception e) {
      throw Znodes.failure("cannot write " + paths.leave(id), e);
    }
  }

  static boolean refused(String answer) {
    return answer.startsWith(REFUSED);
  }

  /** Whether {@code id} asked to leave and was not refused (among {@link #all} answers). */
  static boolean granted(Map<String, String> requests, String id) {
    String answer = requests.get(id);
    return answer != null && !refused(answer);
  }
}
