package org.fawnpack.kv.coord;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.frontend.SliceFollower;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster assembled through a real (in-process) ZooKeeper: back-ends register, the leading
 * front-end's coordinator publishes the first ring when enough have, every node follows it,
 * and a client's writes go through; the other front-end takes over the lead when the leader
 * goes; a stale compare-and-set is refused.
 */
class MembershipTest {
  private static final ClusterPaths PATHS = new ClusterPaths("test");
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final ClusterSecret SECRET = ClusterSecret.generate();

  @TempDir
  Path dir;

  @RegisterExtension
  final ZooKeeperForTests zooKeeper = new ZooKeeperForTests();

  /** Each node has its own session, as its own process would. */
  private CuratorFramework session() {
    return zooKeeper.session();
  }

  private <T extends Closeable> T keep(T node) {
    return zooKeeper.keep(node);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT.toSeconds() + " s: " + what);
      }
      Thread.sleep(20);
    }
  }

  @Test
  void bootstrap_threeBackendsRegister_everyNodeFollowsEpochOne_andWritesGoThrough()
      throws Exception {
    List<FrontEnd> frontEnds = new ArrayList<>();
    List<Coordinator> coordinators = new ArrayList<>();
    for (int f = 0; f < 2; f++) {
      CuratorFramework zk = session();
      FrontEnd frontEnd = keep(FrontEnd.open("f" + f, new InetSocketAddress("127.0.0.1", 0),
          SECRET, FrontEnd.CACHE_ENTRIES_AUTO,
          org.fawnpack.kv.time.Backoffs.DEFAULTS, org.fawnpack.kv.wire.Timeouts.DEFAULTS));
      keep(RingFollower.follow(new RingStore(zk, PATHS), "f" + f, frontEnd));
      keep(SliceFollower.follow(frontEnd, zk, PATHS));
      keep(new SliceCoordinator(zk, PATHS, "f" + f).start());
      coordinators.add(keep(new Coordinator(zk, PATHS, "f" + f, 3, 2, 3).start()));
      frontEnds.add(frontEnd);
    }
    List<Backend> backends = new ArrayList<>();
    for (int b = 0; b < 3; b++) {
      CuratorFramework zk = session();
      Backend backend = keep(Backend.open("b" + b, new InetSocketAddress("127.0.0." + (b + 1),
          0), dir.resolve("b" + b), DatastoreConfig.builder().expectedKeys(64).build(), SECRET));
      keep(RingFollower.follow(new RingStore(zk, PATHS), "b" + b, backend));
      assertEquals(-1, backend.epoch(), "no ring before three back-ends registered");
      keep(BackendRegistration.register(zk, PATHS, backend.member()));
      backends.add(backend);
    }
    await("every node on epoch 1", () -> backends.stream().allMatch(b -> b.epoch() == 1)
        && frontEnds.stream().allMatch(f -> f.epoch() == 1));
    await("both front-ends serve their slices", () -> frontEnds.stream().allMatch(f ->
        f.sliceMap() != null && f.sliceMap().settled() && f.sliceMap().owners().size() == 2));
    assertEquals(1, coordinators.stream().filter(Coordinator::isLeader).count(), "one leader");

    RingStore store = new RingStore(session(), PATHS);
    Ring ring = store.read(store.ringHash()).orElseThrow().ring();
    assertEquals(backends.stream().map(Backend::member).collect(Collectors.toSet()),
        Set.copyOf(ring.members()));
    for (FrontEnd frontEnd : frontEnds) {
      try (FawnKvClient kv = FawnKvClient.connect(frontEnd.address(), WAIT, SECRET)) {
        byte[] key = ("via " + frontEnd.address()).getBytes(StandardCharsets.UTF_8);
        kv.put(key, key);
        assertArrayEquals(key, kv.get(key));
      }
    }

    Coordinator leader = coordinators.stream().filter(Coordinator::isLeader).findFirst()
        .orElseThrow();
    leader.close();
    Coordinator other = coordinators.get(1 - coordinators.indexOf(leader));
    await("the other front-end's coordinator leads", other::isLeader);
  }

  @Test
  void restart_coordinatorBeforeItsBackends_latecomerKept_neverSeenDownOnlyAfterTheGrace()
      throws Exception {
    RingStore store = new RingStore(session(), PATHS);
    List<Member> members = List.of(new Member("b0", "10.0.0.1", 7000),
        new Member("b1", "10.0.0.2", 7000), new Member("b2", "10.0.0.3", 7000));
    assertTrue(store.publish(Ring.at(1, store.ringHash(), 1, 1, members), Optional.empty()));
    keep(BackendRegistration.register(session(), PATHS, members.get(0)));
    Duration grace = Duration.ofSeconds(4);
    long started = System.nanoTime();
    Coordinator coordinator = keep(new Coordinator(session(), PATHS, "f0", 3, 1, 1, grace,
        Duration.ZERO).start());
    await("the coordinator leads", coordinator::isLeader);
    Thread.sleep(1_500); // b1 registers late: after the leader's first look, within the grace
    assertEquals(Set.of(), ringIn(store).down(), "nobody is down within the grace");
    keep(BackendRegistration.register(session(), PATHS, members.get(1)));
    await("b2 marked down", () -> ringIn(store).isDown("b2"));
    assertTrue(System.nanoTime() - started >= grace.toNanos(),
        "b2 was marked down before the grace ran out");
    assertEquals(Set.of("b2"), ringIn(store).down(), "the latecomer b1 is not down");
  }

  @Test
  void downGrace_memberDownLonger_removedForGood_onceTheFrozenArcsHeadsReport()
      throws Exception {
    RingStore store = new RingStore(session(), PATHS);
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      members.add(new Member("b" + i, "10.0.0." + (i + 1), 7000));
    }
    assertTrue(store.publish(Ring.at(1, store.ringHash(), 1, 2, members), Optional.empty()));
    CuratorFramework reports = session(); // the back-ends' reports, as their processes would
    CuratorFramework doomed = session();
    for (int i = 0; i < 3; i++) {
      keep(BackendRegistration.register(session(), PATHS, members.get(i)));
    }
    BackendRegistration.register(doomed, PATHS, members.get(3));
    Duration downGrace = Duration.ofSeconds(2);
    Coordinator coordinator = keep(new Coordinator(session(), PATHS, "f0", 4, 1, 2,
        Duration.ofSeconds(1), downGrace).start());
    await("the coordinator leads", coordinator::isLeader);
    doomed.close(); // b3's session ends: down at once
    await("b3 marked down", () -> ringIn(store).isDown("b3"));
    long down = System.nanoTime();
    Ring extended = ringIn(store);
    for (String copier : extended.pending().keySet()) {
      CopyReports.write(reports, PATHS, copier, extended.epoch(), 1, 0);
    }
    await("b3's removal started", () -> ringIn(store).removing().contains("b3"));
    assertTrue(System.nanoTime() - down >= downGrace.toNanos() - 200_000_000L,
        "removed before its grace ran out");
    Ring removing = ringIn(store);
    assertFalse(removing.frozen().isEmpty(), removing.toString());
    assertEquals(java.util.Map.of("b3", ""), MemberRequests.removals(reports, PATHS).all());
    Thread.sleep(300); // nothing more may happen until the frozen arcs' heads report
    assertEquals(removing.epoch(), ringIn(store).epoch());
    for (long end : removing.frozen()) {
      CopyReports.write(reports, PATHS, removing.chainFor(end).head().id(), removing.epoch(), 0,
          0);
    }
    await("b3 removed", () -> ringIn(store).member("b3") == null);
    Ring after = ringIn(store);
    assertEquals(3, after.chains().size(), after.toString());
    assertTrue(after.removing().isEmpty() && after.down().isEmpty(), after.toString());
    // b3 registers again: not taken back, not joined.
    keep(BackendRegistration.register(session(), PATHS, members.get(3)));
    Thread.sleep(1_000); // watching for a change that must not come
    assertEquals(null, ringIn(store).member("b3"));
    assertTrue(ringIn(store).joining().isEmpty());
  }

  private static Ring ringIn(RingStore store) {
    try {
      return store.read(store.ringHash()).orElseThrow().ring();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void publish_staleVersionOrSecondFirstRing_refused() throws Exception {
    RingStore store = new RingStore(session(), PATHS);
    Ring first = Ring.at(1, store.ringHash(), 1, 1, List.of(new Member("b0", "h0", 7000)));
    assertTrue(store.publish(first, Optional.empty()));
    assertFalse(store.publish(first, Optional.empty()), "a second first ring");
    RingStore.Versioned now = store.read(store.ringHash()).orElseThrow();
    Ring second = first.withMember(new Member("b1", "h1", 7000));
    assertTrue(store.publish(second, Optional.of(now)));
    assertFalse(store.publish(second.withMember(new Member("b2", "h2", 7000)), Optional.of(now)),
        "a compare-and-set on the version before the last change");
    assertEquals(2, store.read(store.ringHash()).orElseThrow().ring().epoch());
    assertArrayEquals(new RingStore(session(), PATHS).ringHash().digest(new byte[] {1}),
        store.ringHash().digest(new byte[] {1}), "one ring key for every node");
  }
}
