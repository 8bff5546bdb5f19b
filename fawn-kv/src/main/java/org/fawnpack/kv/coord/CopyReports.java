package org.fawnpack.kv.coord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Back-ends copying arcs say in ZooKeeper when they hold them all: an ephemeral node
 * {@code copied/<id>} holding "epoch E arcs N bytes B". The coordinator lets the copiers of
 * epoch E serve once every one of them has said so for E.
 */
public final class CopyReports {
  private static final Logger LOG = LoggerFactory.getLogger(CopyReports.class);

  private CopyReports() {}

  /** Back-end {@code id} holds every arc it copies in {@code epoch}. */
  public static void write(CuratorFramework zk, ClusterPaths paths, String id, long epoch,
      int arcs, long bytes) throws IOException {
    byte[] data = ("epoch " + epoch + " arcs " + arcs + " bytes " + bytes)
        .getBytes(StandardCharsets.UTF_8);
    try {
      zk.create().orSetData().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
          .forPath(paths.copied(id), data);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("cannot write " + paths.copied(id) + ": " + e, e);
    }
  }

  /** Back-end id to the epoch it last reported; a report that does not parse is left out. */
  static Map<String, Long> epochs(CuratorFramework zk, ClusterPaths paths) throws IOException {
    Map<String, Long> epochs = new HashMap<>();
    try {
      for (String id : zk.getChildren().forPath(paths.copies())) {
        try {
          String text = new String(zk.getData().forPath(paths.copied(id)),
              StandardCharsets.UTF_8);
          String[] words = text.split(" ");
          epochs.put(id, Long.parseLong(words[1]));
        } catch (KeeperException.NoNodeException gone) {
          LOG.debug("copy report of {} went while read", id);
        } catch (RuntimeException e) {
          LOG.error("copy report {} does not parse: {}", paths.copied(id), e.toString());
        }
      }
      return epochs;
    } catch (KeeperException.NoNodeException e) {
      return epochs;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IOException("cannot list " + paths.copies() + ": " + e, e);
    }
  }
}
