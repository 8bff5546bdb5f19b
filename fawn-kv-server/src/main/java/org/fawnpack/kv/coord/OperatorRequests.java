package org.fawnpack.kv.coord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.fawnpack.kv.zookeeper.Znodes;

/**
 * An operator's requests to the coordinator as persistent znodes under one parent, one per
 * subject (a back-end's leave, an arc declared lost); the coordinator writes "refused: why"
 * into one it cannot carry out. Asking again clears a refusal.
 */
final class OperatorRequests {
  static final String REFUSED = "refused: ";

  private final CuratorFramework zk;
  private final String parent;

  OperatorRequests(CuratorFramework zk, String parent) {
    this.zk = zk;
    this.parent = parent;
  }

  void request(String subject) throws IOException {
    try {
      zk.create().orSetData().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT)
          .forPath(parent + "/" + subject, new byte[0]);
    } catch (Exception e) {
      throw Znodes.failure("write " + parent + "/" + subject, e);
    }
  }

  /** Every request, subject to the coordinator's answer ("" while none, else "refused: why"). */
  Map<String, String> all() throws IOException {
    Map<String, String> requests = new TreeMap<>();
    Znodes.children(zk, parent).forEach((subject, data) ->
        requests.put(subject, new String(data, StandardCharsets.UTF_8)));
    return requests;
  }

  /** The coordinator's refusal of the request about {@code subject}, with the reason. */
  void refuse(String subject, String why) throws IOException {
    try {
      zk.setData().forPath(parent + "/" + subject,
          (REFUSED + why).getBytes(StandardCharsets.UTF_8));
    } catch (KeeperException.NoNodeException withdrawn) {
      // nothing to answer
    } catch (Exception e) {
      throw Znodes.failure("write " + parent + "/" + subject, e);
    }
  }

  static boolean refused(String answer) {
    return answer.startsWith(REFUSED);
  }

  /** Runs {@code changed} when the request about {@code subject} is made or answered. */
  java.io.Closeable watch(String subject, Runnable changed) {
    return Znodes.watch(zk, parent + "/" + subject, bytes -> changed.run());
  }
}
