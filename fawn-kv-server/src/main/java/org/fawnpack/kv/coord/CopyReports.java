package org.fawnpack.kv.coord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.Znodes;
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
    Znodes.writeEphemeral(zk, paths.copied(id), ("epoch " + epoch + " arcs " + arcs + " bytes "
        + bytes).getBytes(StandardCharsets.UTF_8));
  }

  /** Back-end id to the epoch it last reported; a report that does not parse is left out. */
  static Map<String, Long> epochs(CuratorFramework zk, ClusterPaths paths) throws IOException {
    Map<String, Long> epochs = new HashMap<>();
    Znodes.children(zk, paths.copies()).forEach((id, data) -> {
      try {
        epochs.put(id, Long.parseLong(new String(data, StandardCharsets.UTF_8).split(" ")[1]));
      } catch (RuntimeException e) {
        LOG.error("copy report {} does not parse: {}", paths.copied(id), e.toString());
      }
    });
    return epochs;
  }
}
