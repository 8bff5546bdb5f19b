package org.fawnpack.kv.coord;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.SliceStore;

/**
 * A front-end's liveness in ZooKeeper: the ephemeral {@code frontends/<name>}, alive with its
 * session (made again by Curator after a new session), holding where clients reach it and the
 * newest slice epoch it has acknowledged ({@link #acknowledge}).
 */
public final class FrontEndRegistration implements Closeable {
  private static final int REGISTER_SECONDS = 30;
  private final PersistentNode node;
  private final SliceMap.Endpoint self;

  private FrontEndRegistration(PersistentNode node, SliceMap.Endpoint self) {
    this.node = node;
    this.self = self;
  }

  public static FrontEndRegistration register(CuratorFramework zk, ClusterPaths paths,
      SliceMap.Endpoint self) throws IOException {
    PersistentNode node = new PersistentNode(zk, CreateMode.EPHEMERAL, false,
        paths.frontEnd(self.name()), SliceStore.registration(self, 0));
    node.start();
    try {
      // Acknowledgements are set on the node: it must exist first.
      if (!node.waitForInitialCreate(REGISTER_SECONDS, TimeUnit.SECONDS)) {
        node.close();
        throw new IOException("front-end " + self.name() + " could not register at "
            + paths.frontEnd(self.name()) + " within " + REGISTER_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      node.close();
      throw new IOException("interrupted registering front-end " + self.name(), e);
    }
    return new FrontEndRegistration(node, self);
  }

  /**
   * Says this front-end serves by slice epoch {@code epoch} and by none older: it answers no
   * key it lost and nothing it admitted under an older epoch is still on its way.
   */
  public void acknowledge(long epoch) throws IOException {
    try {
      node.setData(SliceStore.registration(self, epoch));
    } catch (Exception e) {
      throw SliceStore.failure("acknowledge slice epoch " + epoch + " for front-end "
          + self.name(), e);
    }
  }

  @Override
  public void close() throws IOException {
    node.close();
  }
}
