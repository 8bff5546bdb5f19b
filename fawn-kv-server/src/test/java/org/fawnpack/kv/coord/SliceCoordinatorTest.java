package org.fawnpack.kv.coord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.SliceStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The slice coordinator against a real (in-process) ZooKeeper, with registrations standing in
 * for front-ends so the test decides when each acknowledges: a handover settles only once every
 * previous owner still registered has acknowledged it, and at once when the only previous owner
 * that has not is gone.
 */
class SliceCoordinatorTest {
  private static final ClusterPaths PATHS = new ClusterPaths("slices");
  @RegisterExtension
  final ZooKeeperForTests zooKeeper = new ZooKeeperForTests();

  /** Each node has its own session, as its own process would. */
  private CuratorFramework session() {
    return zooKeeper.session();
  }

  private static SliceMap.Endpoint endpoint(String name, int port) {
    return new SliceMap.Endpoint(name, "127.0.0.1", port);
  }

  @Test
  void handover_waitsForEveryPreviousOwnerStillRegistered() throws Exception {
    SliceStore store = new SliceStore(session(), PATHS);
    FrontEndRegistration f0 = FrontEndRegistration.register(session(), PATHS,
        endpoint("f0", 7000));
    zooKeeper.keep(f0);
    CuratorFramework f1Session = session();
    FrontEndRegistration f1 = FrontEndRegistration.register(f1Session, PATHS,
        endpoint("f1", 7001));
    SliceCoordinator coordinator = new SliceCoordinator(session(), PATHS, "c").start();
    zooKeeper.keep(coordinator);
    SliceMap first = await(store, m -> m.names().equals(List.of("f0", "f1")));
    assertTrue(first.settled(), "the first map serves at once: " + first);

    FrontEndRegistration f2 = FrontEndRegistration.register(session(), PATHS,
        endpoint("f2", 7002));
    zooKeeper.keep(f2);
    SliceMap handover = await(store, m -> m.names().size() == 3);
    assertFalse(handover.settled());
    f0.acknowledge(handover.epoch());
    Thread.sleep(300); // the coordinator has seen f0's acknowledgement and must still wait
    assertEquals(handover, store.read().orElseThrow().map(), "settled without f1's ack");
    f1.acknowledge(handover.epoch());
    SliceMap settled = await(store, m -> m.epoch() == handover.epoch() + 1);
    assertTrue(settled.settled());
    assertEquals(handover.names(), settled.names());

    f1.close(); // f1 leaves: a handover from f0, f1, f2 to f0, f2
    f1Session.close();
    SliceMap second = await(store, m -> m.names().equals(List.of("f0", "f2")));
    assertFalse(second.settled());
    f0.acknowledge(second.epoch());
    f2.acknowledge(second.epoch());
    SliceMap done = await(store, m -> m.epoch() == second.epoch() + 1);
    assertTrue(done.settled(), "f1 is gone and is not waited for: " + done);
  }

  private static SliceMap await(SliceStore store, Predicate<SliceMap> wanted) throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (System.nanoTime() < deadline) {
      Optional<SliceStore.Versioned> stored = store.read();
      if (stored.isPresent() && wanted.test(stored.get().map())) {
        return stored.get().map();
      }
      Thread.sleep(20);
    }
    fail("no slice map as wanted within 20 s; stored: " + store.read());
    return null;
  }
}
