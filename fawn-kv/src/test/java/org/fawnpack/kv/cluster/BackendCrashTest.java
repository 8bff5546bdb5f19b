package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.IOException;
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
import org.fawnpack.kv.cli.EmbeddedZooKeeper;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.coord.ClusterPaths;
import org.fawnpack.kv.coord.Coordinator;
import org.fawnpack.kv.coord.RingFollower;
import org.fawnpack.kv.coord.RingStore;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Ring;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
class BackendCrashTest {
  private static final int BACKENDS = 5;
  private static final int KEYS = 12;
  private static final int CLIENTS = 4;
  private static final Duration DEADLINE = Duration.ofSeconds(15);
  @TempDir
  Path dir;

  private ChildCluster cluster;

  @BeforeEach
  void startCluster() throws Exception {
    cluster = new ChildCluster(dir, BACKENDS);
  }

  @AfterEach
  void stopCluster() throws IOException {
    cluster.close();
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

  /** What a test does to the cluster while the clients run. */
  private interface Faults {
    void inject() throws Exception;
  }

  private void runWorkload(List<InetSocketAddress> frontEnds, Faults faults) throws Exception {
    HistoryRecorder recorder = new HistoryRecorder();
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    List<Future<Integer>> clients = new ArrayList<>();
    for (int t = 0; t < CLIENTS; t++) {
      int client = t;
      clients.add(pool.submit(() -> workload(client, frontEnds, recorder, stop)));
    }
    try {
      Thread.sleep(1_000);
      faults.inject();
      cluster.awaitCopiesServing(); // the clients keep going through the extension
      Thread.sleep(1_000);
    } finally {
      stop.set(true);
      pool.shutdown();
    }
    int operations = 0;
    for (Future<Integer> client : clients) {
      operations += client.get(60, TimeUnit.SECONDS);
    }
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE,
        cluster.secret)) {
      for (int k = 0; k < KEYS; k++) {
        recorder.getOrThrow(kv, key(k)); // every chain kept a live member
      }
      // The chains are full again (replacements copied their arcs): writes are taken.
      assertEquals(Op.Outcome.OK, recorder.put(kv, key(0), "after".getBytes(
          StandardCharsets.UTF_8)));
      recorder.getOrThrow(kv, key(0));
    }
    assertTrue(operations > 100, "the clients did too little to test anything: " + operations);
    LinearizabilityChecker checker = new LinearizabilityChecker(5_000_000);
    for (Map.Entry<ByteBuffer, List<Op>> e : recorder.histories().entrySet()) {
      List<Op> history = new ArrayList<>(e.getValue());
      assertEquals(LinearizabilityChecker.Verdict.LINEARIZABLE, checker.check(history, null),
          new String(e.getKey().array(), StandardCharsets.UTF_8) + ": " + history);
    }
  }

  /**
   * Random puts (unique values), deletes and gets until {@code stop}; at most 20,000 ops. After
   * a write with an unknown outcome the client only reads until the ring changes: every such
   * write may take effect at any later time, and a few hundred of them would put the history
   * beyond any checker's reach (each doubles the orders to try).
   */
  private Integer workload(int client, List<InetSocketAddress> frontEnds,
      HistoryRecorder recorder, AtomicBoolean stop) throws IOException {
    Random random = new Random(client);
    int done = 0;
    long readOnlyUntilAfter = -1;
    try (FawnKvClient kv = FawnKvClient.connect(frontEnds, DEADLINE, cluster.secret)) {
      while (!stop.get() && done < 20_000) {
        byte[] key = key(random.nextInt(KEYS));
        int dice = random.nextInt(10);
        boolean mayWrite = cluster.frontEnd.epoch() > readOnlyUntilAfter;
        Op.Outcome outcome = null;
        if (mayWrite && dice < 4) {
          outcome = recorder.put(kv, key, ("c" + client + "-" + done)
              .getBytes(StandardCharsets.UTF_8));
        } else if (mayWrite && dice < 5) {
          outcome = recorder.delete(kv, key);
        } else {
          recorder.get(kv, key);
        }
        if (outcome == Op.Outcome.INDETERMINATE) {
          readOnlyUntilAfter = cluster.frontEnd.epoch();
        }
        done++;
      }
    }
    return done;
  }

  private static byte[] key(int k) {
    return ("key-" + k).getBytes(StandardCharsets.UTF_8);
  }
}
