package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.fawnpack.kv.ring.Member;

/**
 * A back-end's liveness in ZooKeeper: an ephemeral node {@code backends/<id>} holding
 * "host port", alive as long as the back-end's ZooKeeper session (and made again by Curator
 * after a reconnect with a new session).
 */
public final class BackendRegistration implements Closeable {
  private final PersistentNode node;

  private BackendRegistration(PersistentNode node) {
    this.node = node;
  }

  public static BackendRegistration register(CuratorFramework zk, ClusterPaths paths,
      Member self) {
    byte[] data = (self.host() + " " + self.port()).getBytes(StandardCharsets.UTF_8);
    PersistentNode node = new PersistentNode(zk, CreateMode.EPHEMERAL, false,
        paths.backend(self.id()), data);
    node.start();
    return new BackendRegistration(node);
  }

  /** The member a registration node stands for. */
  static Member memberOf(String id, byte[] data) {
    String[] words = new String(data, StandardCharsets.UTF_8).split(" ");
    if (words.length != 2) {
      throw new IllegalArgumentException("registration of back-end " + id + " is '"
          + new String(data, StandardCharsets.UTF_8) + "', expected 'host port'");
    }
    return new Member(id, words[0], Integer.parseInt(words[1]));
  }

  @Override
  public void close() throws IOException {
    node.close();
  }
}
