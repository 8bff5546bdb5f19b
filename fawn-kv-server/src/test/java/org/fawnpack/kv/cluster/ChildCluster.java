package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.coord.Coordinator;
import org.fawnpack.kv.coord.RingFollower;
import org.fawnpack.kv.coord.SliceCoordinator;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.frontend.SliceFollower;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;

/**
 * A FAWN-KV cluster for fault tests: back-ends as child JVMs on 127.0.0.1..n (each its own
 * host, so chains of three fit), a real in-process ZooKeeper, and a front-end with its
 * coordinator in the test's JVM. Waits are bounded by {@link #WAIT}.
 */
final class ChildCluster implements Closeable {
  static final Duration WAIT = Duration.ofSeconds(60);
  static final ClusterPaths PATHS = new ClusterPaths("fawn");
  static final int VNODES = 2;
  static final int REPLICAS = 3;

  private final Path dir;
  private final int backendCount;
  private final List<Closeable> open = new ArrayList<>();
  final List<NodeProcess> backends = new ArrayList<>();
  /** Front-ends started as child JVMs ({@link #addFrontEnd}), by name, with their addresses. */
  final Map<String, NodeProcess> frontEndProcesses = new java.util.TreeMap<>();
  final Map<String, InetSocketAddress> frontEndAddresses = new java.util.TreeMap<>();
  /** Back-end id to the proxy in front of it, when the cluster is proxied. */
  final Map<String, LoopbackProxy> proxies = new java.util.TreeMap<>();
  final Map<String, String> settings;
  /** Each back-end's settings: the cluster's and its own. */
  private final Map<String, Map<String, String>> backendSettings = new java.util.HashMap<>();
  private final java.util.function.IntFunction<Map<String, String>> own;
  final CuratorFramework zk;
  final ClusterSecret secret;
  final RingStore ringStore;
  final FrontEnd frontEnd;
  Coordinator coordinator;

  ChildCluster(Path dir, int backendCount) throws Exception {
    this(dir, backendCount, false);
  }

  /**
   * {@code proxied}: every back-end is reached (by peers and the front-end) through a
   * {@link LoopbackProxy} on its host, in {@link #proxies} by id, so a test can slow or cut
   * its links; its ZooKeeper session does not go through it.
   */
  ChildCluster(Path dir, int backendCount, boolean proxied) throws Exception {
    this(dir, backendCount, proxied, i -> Map.of());
  }

  /** {@code own}: settings of back-end {@code b<i>} beside the cluster's (its domain, say). */
  ChildCluster(Path dir, int backendCount, boolean proxied,
      java.util.function.IntFunction<Map<String, String>> own) throws Exception {
    this.dir = dir;
    this.backendCount = backendCount;
    this.own = own;
    try {
      TestingServer zooKeeper = new TestingServer(-1, dir.resolve("zk").toFile(), true);
      open.add(zooKeeper);
      Path secretFile = dir.resolve("secret");
      secret = ClusterSecret.loadOrCreate(secretFile);
      settings = Map.of(
          "fawn.kv.zookeeper.quorum", zooKeeper.getConnectString(),
          "fawn.kv.zookeeper.session-timeout-ms", "4000",
          "fawn.kv.secret-file", secretFile.toString(),
          "fawn.kv.index.expected-keys", "1024",
          // Compaction as eager as it goes, so that every fault test also runs compactions
          // under its faults, with their floors checked by its linearizability check.
          "fawn.kv.compaction.check-ms", "200",
          "fawn.kv.compaction.garbage-ratio", "0.05",
          "fawn.kv.compaction.cut-retention-ms", "0",
          "fawn.kv.compaction.bytes-per-second", "64m");
      for (int i = 1; i <= backendCount; i++) {
        String host = "127.0.0." + i;
        List<String> options = List.of();
        if (proxied) {
          int port = freePort(host);
          LoopbackProxy proxy = new LoopbackProxy(host, new InetSocketAddress(host, port));
          open.add(proxy);
          proxies.put("b" + i, proxy);
          options = List.of("--port", Integer.toString(port), "--advertise-port",
              Integer.toString(proxy.port()));
        }
        Map<String, String> its = new java.util.HashMap<>(settings);
        its.putAll(own.apply(i));
        backendSettings.put("b" + i, its);
        NodeProcess b = NodeProcess.backend("b" + i, host, dir.resolve("b" + i), its, options);
        backends.add(b);
        open.add(b);
      }
      zk = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), 4_000, 10_000,
          new ExponentialBackoffRetry(200, 10));
      zk.start();
      open.add(zk);
      assertTrue(zk.blockUntilConnected(30, TimeUnit.SECONDS), "ZooKeeper unreachable");
      ringStore = new RingStore(zk, PATHS);
      // A front-end as ./fawn kv frontend makes one: it serves its slice, with a cache.
      frontEnd = FrontEnd.open("f0", new InetSocketAddress("127.0.0.1", 0), secret,
          FrontEnd.CACHE_ENTRIES_AUTO,
          org.fawnpack.kv.time.Backoffs.DEFAULTS, org.fawnpack.kv.wire.Timeouts.DEFAULTS);
      open.add(frontEnd);
      open.add(RingFollower.follow(ringStore, "frontend f0", frontEnd));
      open.add(SliceFollower.follow(frontEnd, zk, PATHS));
      open.add(new SliceCoordinator(zk, PATHS, "f0").start());
      coordinator = newCoordinator();
      awaitEpochAbove(0);
      awaitBackendsOnTheRing();
      awaitSlices();
    } catch (Exception | Error e) {
      close();
      throw e;
    }
  }

  /** Waits until the front-end serves by a settled slice map. */
  private void awaitSlices() throws InterruptedException {
    awaitSlices(Set.of("f0"));
  }

  /** Waits until this JVM's front-end serves by a settled slice map naming {@code names}. */
  void awaitSlices(Set<String> names) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (frontEnd.sliceMap() == null || !frontEnd.sliceMap().settled()
        || !new TreeSet<>(frontEnd.sliceMap().names()).equals(names)) {
      assertTrue(System.nanoTime() < deadline, "the front-end had no settled slice map of "
          + names + " within " + WAIT.toSeconds() + " s: " + frontEnd.sliceMap());
      Thread.sleep(20);
    }
  }

  /**
   * Starts front-end {@code name} as a child JVM ({@code fawn kv frontend}) on {@code host},
   * with the cluster's settings and {@code extra} ones (its cache size, say), and waits until
   * the slice map names it and every front-end started so far, settled.
   */
  InetSocketAddress addFrontEnd(String name, String host, Map<String, String> extra)
      throws Exception {
    int port = freePort(host);
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.putAll(extra);
    NodeProcess process = NodeProcess.frontEnd(name, host, port, dir.resolve(name), all);
    open.add(process);
    frontEndProcesses.put(name, process);
    InetSocketAddress address = new InetSocketAddress(host, port);
    frontEndAddresses.put(name, address);
    Set<String> names = new TreeSet<>(frontEndProcesses.keySet());
    names.add("f0");
    awaitSlices(names);
    return address;
  }

  /** A port nothing listens on at {@code host} just now (a back-end takes it at once). */
  private static int freePort(String host) throws IOException {
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName(host))) {
      return probe.getLocalPort();
    }
  }

  /** A coordinator named f0 in this JVM, started (the election decides whether it leads). */
  Coordinator newCoordinator() throws IOException {
    return new Coordinator(zk, PATHS, "f0", backendCount, VNODES, REPLICAS).start();
  }

  /** The data directory of back-end {@code id}. */
  Path dataOf(String id) {
    return dir.resolve(id).resolve("data");
  }

  void kill9(String id) throws InterruptedException {
    backends.stream().filter(b -> b.id().equals(id)).findFirst().orElseThrow().kill9();
  }

  /**
   * Stops back-end {@code id} — SIGKILL when {@code crash}, else SIGTERM, a clean stop — and
   * starts a new process for it on the same host and data directory, listening on whatever
   * port it gets (almost surely another).
   */
  void restart(String id, boolean crash) throws Exception {
    int at = indexOf(id);
    NodeProcess old = backends.get(at);
    if (crash) {
      old.kill9();
    } else {
      old.stop();
    }
    NodeProcess again = NodeProcess.backend(id, "127.0.0." + (at + 1), dir.resolve(id),
        backendSettings.getOrDefault(id, settings));
    backends.set(at, again);
    open.set(open.indexOf(old), again);
  }

  private int indexOf(String id) {
    for (int i = 0; i < backends.size(); i++) {
      if (backends.get(i).id().equals(id)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no back-end " + id);
  }

  Ring currentRing() throws IOException {
    Optional<RingStore.Versioned> ring = ringStore.read(ringStore.ringHash());
    return ring.orElseThrow(() -> new IllegalStateException("no ring in ZooKeeper")).ring();
  }

  /**
   * A number that grows whenever the ring or this JVM's front-end's slice map moves on (the sum
   * of their epochs): what a checked client waits on after a write with an unknown outcome.
   */
  long version() {
    org.fawnpack.kv.slice.SliceMap slices = frontEnd.sliceMap();
    return frontEnd.epoch() + (slices == null ? 0 : slices.epoch());
  }

  /**
   * Compactions the live back-ends made since they started (STATS), -1 for one that does not
   * answer: fault tests log it, as evidence that compactions ran under their faults.
   */
  java.util.Map<String, Long> compactions() throws IOException {
    Ring ring = currentRing();
    java.util.Map<String, Long> byId = new java.util.TreeMap<>();
    try (ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(5), 1 << 20, secret)) {
      for (Member m : ring.members()) {
        if (ring.isDown(m.id())) {
          continue;
        }
        try {
          byId.put(m.id(), org.fawnpack.kv.wire.StatsReport.decode(pool.to(m).call(
              MessageType.STATS, ring.epoch(), null, Duration.ofSeconds(5))).compactions());
        } catch (IOException e) {
          byId.put(m.id(), -1L);
        }
      }
    }
    return byId;
  }

  /**
   * Waits until the ring names back-end {@code old} (restarted cleanly) at another port, and
   * the front-end routes by that ring.
   */
  void awaitMovedFrom(Member old) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      Ring ring = currentRing();
      Member now = ring.member(old.id());
      if (now.port() != old.port() && frontEnd.epoch() >= ring.epoch()) {
        return;
      }
      assertTrue(System.nanoTime() < deadline, old.id() + " not followed to a new port: "
          + ring);
      Thread.sleep(50);
    }
  }

  void awaitEpochAbove(long epoch) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (frontEnd.epoch() <= epoch) {
      assertTrue(System.nanoTime() < deadline, "the front-end stayed at epoch "
          + frontEnd.epoch() + " for " + WAIT.toSeconds() + " s; back-end logs: " + logs());
      Thread.sleep(50);
    }
  }

  /**
   * Waits until every back-end has the ring: one asked for a key answers anything but "no
   * ring yet" (a STALE_RING, a refusal naming the tail, a value).
   */
  private void awaitBackendsOnTheRing() throws Exception {
    Ring ring = currentRing();
    long deadline = System.nanoTime() + WAIT.toNanos();
    try (ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(5), 1 << 20, secret)) {
      for (Member m : ring.members()) {
        while (true) {
          Frame reply = pool.to(m).call(MessageType.GET, ring.epoch(), new Frame.Payload()
              .addBytes("probe".getBytes(java.nio.charset.StandardCharsets.UTF_8)).toBytes(),
              WAIT);
          if (reply.type() != MessageType.REFUSED
              || !MessageType.messageOf(reply).contains("no ring yet")) {
            break;
          }
          assertTrue(System.nanoTime() < deadline, m + " never got the ring; logs: " + logs());
          Thread.sleep(50);
        }
      }
    }
  }

  /** Waits until the stored ring satisfies {@code condition} and the front-end serves it. */
  Ring awaitRing(java.util.function.Predicate<Ring> condition, String what) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Ring ring = currentRing();
    while (!condition.test(ring) || frontEnd.epoch() < ring.epoch()) {
      assertTrue(System.nanoTime() < deadline, "no ring where " + what + " after "
          + WAIT.toSeconds() + " s: " + ring + "; back-end logs: " + logs());
      Thread.sleep(50);
      ring = currentRing();
    }
    return ring;
  }

  /**
   * Back-end {@code id} as it registered (host and port), once something listens there (a
   * registration left by a process that died names a port nothing listens on any more).
   */
  Member awaitRegistration(String id) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        byte[] data = zk.getData().forPath(PATHS.backend(id));
        String[] words = new String(data, java.nio.charset.StandardCharsets.UTF_8).split(" ");
        Member m = new Member(id, words[0], Integer.parseInt(words[1]));
        if (portAnswers(m)) {
          return m;
        }
      } catch (org.apache.zookeeper.KeeperException.NoNodeException e) {
        // not registered yet
      }
      assertTrue(System.nanoTime() < deadline, id + " did not register within "
          + WAIT.toSeconds() + " s; log: " + backend(id).logFile());
      Thread.sleep(50);
    }
  }

  /** Whether something listens at {@code m}'s address (a registration left by a dead process
   *  names a port nothing listens on). */
  private static boolean portAnswers(Member m) {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new InetSocketAddress(m.host(), m.port()), 1_000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Back-end {@code id}'s process (the latest, after restarts). */
  NodeProcess backend(String id) {
    return backends.get(indexOf(id));
  }

  /** Every back-end's disk holds the files of exactly the arcs it serves (within the wait). */
  void awaitArcFilesMatchRing(Ring ring) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    for (Member m : ring.members()) {
      Set<String> expected = new TreeSet<>();
      for (long end : arcsServedBy(ring, m.id())) {
        expected.add(String.format("arc-%016x.fds", end));
      }
      while (!arcFilesOf(m.id()).equals(expected)) {
        assertTrue(System.nanoTime() < deadline, m.id() + " holds " + arcFilesOf(m.id())
            + ", serves " + expected + " in " + ring);
        Thread.sleep(50);
      }
    }
  }

  /** The arc files (logs) in back-end {@code id}'s data directory. */
  Set<String> arcFilesOf(String id) throws IOException {
    Set<String> names = new TreeSet<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dataOf(id),
        "arc-*.fds")) {
      files.forEach(f -> names.add(f.getFileName().toString()));
    }
    return names;
  }

  /** The ends of the arcs whose chains have {@code id} serving. */
  static Set<Long> arcsServedBy(Ring ring, String id) {
    Set<Long> ends = new TreeSet<>();
    for (Chain chain : ring.chains()) {
      if (chain.members().stream().anyMatch(m -> m.id().equals(id))) {
        ends.add(chain.range().endInclusive());
      }
    }
    return ends;
  }

  /**
   * Starts back-end {@code id}, new to the cluster, on the next loopback host (it joins).
   */
  void addBackend(String id) throws IOException {
    int i = backends.size() + 1;
    Map<String, String> its = new java.util.HashMap<>(settings);
    its.putAll(own.apply(i)); // a joiner's own settings, as the first back-ends had theirs
    backendSettings.put(id, its);
    NodeProcess b = NodeProcess.backend(id, "127.0.0." + i, dir.resolve(id), its);
    backends.add(b);
    open.add(b);
  }

  /** Waits until no back-end is copying and the front-end serves that epoch. */
  void awaitCopiesServing() throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Ring ring = currentRing();
    while (!ring.pending().isEmpty() || frontEnd.epoch() < ring.epoch()) {
      assertTrue(System.nanoTime() < deadline, "replacements still copying after "
          + WAIT.toSeconds() + " s: " + ring + "; back-end logs: " + logs());
      Thread.sleep(50);
      ring = currentRing();
    }
  }

  List<String> logs() {
    return backends.stream().map(NodeProcess::logFile).toList();
  }

  @Override
  public void close() throws IOException {
    if (coordinator != null) {
      coordinator.close();
    }
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }
}
