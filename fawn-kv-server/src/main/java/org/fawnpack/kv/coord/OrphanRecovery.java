package org.fawnpack.kv.coord;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The coordinator's choice of where each orphaned arc (every serving member down, see {@code
 * ring.Orphans}) is recovered from: once every member of its last chain is back and reported
 * what it holds ({@link RecoveryReports}), the one whose file has the most writes. Between
 * them the last chain's members hold every write its tail acknowledged (the tail forced each
 * one before it answered), and their files are prefixes of one history, so the longest loses
 * nothing acknowledged; writes no one acknowledged may survive or not, both outcomes a client
 * with an unknown outcome may see. It waits for every member rather than take the longest so
 * far: the tail, which alone forced its writes, may be the one still missing.
 */
final class OrphanRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanRecovery.class);

  private final CuratorFramework zk;
  private final ClusterPaths paths;
  private final String name;
  private final LostArcs lostArcs;
  /** What was logged already, once each. */
  private final Set<String> logged = new HashSet<>();

  OrphanRecovery(CuratorFramework zk, ClusterPaths paths, String name) {
    this.zk = zk;
    this.paths = paths;
    this.name = name;
    this.lostArcs = new LostArcs(zk, paths);
  }

  /**
   * The orphaned arcs an operator declared gone ({@link LostArcs}) and not yet lost; a
   * declaration of an arc that is not waiting for its members is refused in its znode.
   */
  List<Long> declaredLost(Ring ring) throws IOException {
    List<Long> lost = new java.util.ArrayList<>();
    for (Map.Entry<Long, String> declared : lostArcs.all().entrySet()) {
      long end = declared.getKey();
      if (LostArcs.refused(declared.getValue()) || ring.orphans().lost().contains(end)) {
        continue;
      }
      if (ring.orphans().lastChains().containsKey(end)) {
        lost.add(end);
      } else {
        lostArcs.refuse(end, "arc ending at " + Long.toHexString(end) + " is not waiting for"
            + " its members in epoch " + ring.epoch() + " (only such an arc can be lost)");
      }
    }
    return lost;
  }

  /** Arc end to the member it is recovered from, for every orphaned arc that can be now. */
  Map<Long, String> sources(Ring ring) throws IOException {
    Map<String, Map<Long, Long>> reports = RecoveryReports.read(zk, paths);
    reports.keySet().removeIf(id -> ring.member(id) == null || ring.isDown(id));
    Map<Long, String> sources = new TreeMap<>();
    for (Map.Entry<Long, List<String>> orphan : ring.orphans().lastChains().entrySet()) {
      long end = orphan.getKey();
      RecoveryReports.Decision d = RecoveryReports.decide(end, orphan.getValue(), reports);
      String arc = ring.chainFor(end).range().toString();
      if (d.source().isPresent()) {
        sources.put(end, d.source().get());
      } else if (d.lost() && logged.add("lost " + end)) {
        LOG.error("coordinator {}: arc {}: no member of its last chain {} has its file any"
            + " more; its data is gone and it stays unavailable (./fawn kv lost --arc {} lets"
            + " the other arcs heal without it)", name, arc, orphan.getValue(),
            String.format("%016x", end));
      } else if (!d.lost() && logged.add("waits " + end + d.waitingFor())) {
        LOG.warn("coordinator {}: arc {} has no live member; it is recovered once {} of its"
            + " last chain {} are back and have reported their files", name, arc,
            d.waitingFor(), orphan.getValue());
      }
    }
    return sources;
  }
}
