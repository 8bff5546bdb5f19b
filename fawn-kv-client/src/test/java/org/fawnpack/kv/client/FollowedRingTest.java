package org.fawnpack.kv.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ring a tail-reading client follows on its own ZooKeeper session, against a real
 * ZooKeeper server in process: it holds what a coordinator published, newer epochs as they
 * come, and a cluster ZooKeeper does not have is refused by name without a znode made for it.
 */
class FollowedRingTest {
  private TestingServer server;
  private CuratorFramework coordinator;

  @BeforeEach
  void start() throws Exception {
    server = new TestingServer(true);
    coordinator = CuratorFrameworkFactory.newClient(server.getConnectString(),
        new RetryOneTime(100));
    coordinator.start();
    assertTrue(coordinator.blockUntilConnected(30, TimeUnit.SECONDS));
  }

  @AfterEach
  void stop() throws IOException {
    coordinator.close();
    server.close();
  }

  @Test
  void aClusterZooKeeperDoesNotHave_isRefusedByName_andNothingIsWritten() throws Exception {
    IOException e = assertThrows(IOException.class,
        () -> FollowedRing.open(server.getConnectString(), "no-such-cluster"));
    assertTrue(e.getMessage().contains("no-such-cluster")
        && e.getMessage().contains(new ClusterPaths("no-such-cluster").ringKey()), e.getMessage());
    assertNull(coordinator.checkExists().forPath("/fawn-kv/no-such-cluster"),
        "a client made znodes for a cluster that is not there");
  }

  @Test
  void holdsThePublishedRing_thenEachNewerEpoch() throws Exception {
    RingStore store = new RingStore(coordinator, new ClusterPaths("c1"));
    RingHash hash = store.ringHash();
    Ring first = Ring.empty(hash, 2, 2).withMember(new Member("b1", "127.0.0.1", 7001));
    assertTrue(store.publish(first, Optional.empty()));
    try (FollowedRing followed = FollowedRing.open(server.getConnectString(), "c1")) {
      assertEquals(first.epoch(), followed.current().epoch());
      assertTrue(followed.upToDate());
      Ring second = first.withMember(new Member("b2", "127.0.0.2", 7001));
      assertTrue(second.epoch() > first.epoch());
      assertTrue(store.publish(second, store.read(hash)));
      followed.awaitNewer(first.epoch(), 20_000);
      assertEquals(second.epoch(), followed.current().epoch());
      assertEquals(new java.util.HashSet<>(second.members()),
          new java.util.HashSet<>(followed.current().members()));
    }
  }
}
