package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.check.HistoryRecorder;
import org.fawnpack.kv.check.LinearizabilityChecker;
import org.fawnpack.kv.check.Op;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.coord.Coordinator;
import org.fawnpack.kv.coord.RingFollower;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.junit.jupiter.api.Test;

/**
 * Back-ends as child JVMs on 127.0.0.1..5 (chains of three), membership in a real in-process
 * ZooKeeper, a front-end with its coordinator in this JVM. Clients read and write a few keys
 * while members of one chain are killed with SIGKILL; each key's recorded history, with a
 * final read of every key, must be linearizable (so no acknowledged write is lost and no read
 * went back in time) and every key must stay readable. The clients go on while the dead
 * members' replacements copy their arcs and join the chains; then writes are taken again
 * (until then the short chains refuse them). One case kills the leading front-end first:
 * clients move to the other, whose coordinator then repairs a back-end's crash.
 */
class BackendCrashTest extends ChildClusterTest {
  private static final int BACKENDS = 5;
  @Override
  int backends() {
    return BACKENDS;
  }

  @Test
  void kill9_headOfAChain_historyLinearizable_everyKeyReadable() throws Exception {
    runWithCrashes(0);
  }

  @Test
  void kill9_middleOfAChain_historyLinearizable_everyKeyReadable() throws Exception {
    runWithCrashes(1);
  }

  @Test
  void kill9_tailOfAChain_historyLinearizable_everyKeyReadable() throws Exception {
    runWithCrashes(2);
  }

  @Test
  void kill9_middleAndTailOfOneChain_headServesAlone_historyLinearizable() throws Exception {
    runWithCrashes(1, 2);
  }

  @Test
  void kill9_leadingFrontEndThenABackend_clientsMoveOn_otherCoordinatorRepairs()
      throws Exception {
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("127.0.0.1"))) {
      port = probe.getLocalPort();
    }
    try (NodeProcess f1 = NodeProcess.frontEnd("f1", "127.0.0.1", port, dir.resolve("f1"),
        cluster.settings)) {
      makeF1Lead();
      List<InetSocketAddress> frontEnds = List.of(new InetSocketAddress("127.0.0.1", port),
          cluster.frontEnd.address());
      runWorkload(frontEnds, () -> {
        f1.kill9();
        Thread.sleep(1_000);
        crash(cluster.currentRing(), 1);
      });
    }
    assertTrue(cluster.coordinator.isLeader(), "this front-end's coordinator took over from f1");
  }

  /**
   * Makes the child front-end f1 lead: while this JVM's coordinator f0 is first in the
   * election, it leaves and joins again behind f1. Repeated (bounded), because f1's latch
   * rejoins at the back whenever its session's connection drops, which a loaded machine causes.
   */
  private void makeF1Lead() throws Exception {
    long deadline = System.nanoTime() + ChildCluster.WAIT.toNanos();
    List<String> order = electionOrder();
    while (!order.equals(List.of("f1", "f0"))) {
      assertTrue(System.nanoTime() < deadline, "f1 never led; the election is " + order);
      if (order.equals(List.of("f0", "f1"))) {
        cluster.coordinator.close(); // deletes its election node in the background
        cluster.coordinator = cluster.newCoordinator();
      }
      Thread.sleep(100);
      order = electionOrder();
    }
  }

  /** The ids in the election, leader first (LeaderLatch: lowest sequence number leads). */
  private List<String> electionOrder() throws Exception {
    CuratorFramework zk = cluster.zk;
    String election = ChildCluster.PATHS.coordinator();
    List<String> nodes = new ArrayList<>(zk.getChildren().forPath(election));
    nodes.sort(java.util.Comparator.comparing(n -> n.substring(n.lastIndexOf('-') + 1)));
    List<String> ids = new ArrayList<>();
    for (String node : nodes) {
      try {
        ids.add(new String(zk.getData().forPath(election + "/" + node),
            StandardCharsets.UTF_8));
      } catch (org.apache.zookeeper.KeeperException.NoNodeException gone) {
        ids.add("(gone)"); // deleted while listed: the caller looks again
      }
    }
    return ids;
  }

  /** Kills the members at {@code chainPositions} of key 0's chain while clients run. */
  private void runWithCrashes(int... chainPositions) throws Exception {
    runWorkload(List.of(cluster.frontEnd.address()),
        () -> crash(cluster.currentRing(), chainPositions));
  }

  /** Kills members of key 0's chain in {@code before} and waits for the next epoch. */
  private void crash(Ring before, int... chainPositions) throws Exception {
    Chain chain = before.chainForKey(key(0));
    for (int position : chainPositions) {
      String id = chain.members().get(position).id();
      cluster.kill9(id);
    }
    cluster.awaitEpochAbove(before.epoch());
  }

  private static byte[] key(int k) {
    return CheckedWorkload.key(k);
  }

  private void runWorkload(List<InetSocketAddress> frontEnds, CheckedWorkload.Faults faults)
      throws Exception {
    new CheckedWorkload(cluster).run(frontEnds, faults);
  }
}
