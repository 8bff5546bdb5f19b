package org.fawnpack.kv.loopback;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.cli.ClusterInspection;
import org.fawnpack.kv.cli.KvNodes;
import org.fawnpack.kv.cli.KvSettings;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.StatsReport;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.fawnpack.kv.zookeeper.RingStore;

/**
 * A FAWN-KV cluster on loopback for the demo and the benchmarks: an embedded ZooKeeper,
 * back-ends as child JVMs on 127.0.0.1, .2, ... (so one can be killed with SIGKILL), and
 * front-ends in this JVM; started once every back-end is on the first ring and every front-end
 * serves its share of a settled slice map. Each back-end's energy comes from the power model
 * of the paper's Edison unless the settings name a collector port or other figures.
 */
public final class LoopbackCluster implements Closeable {
  private static final Duration WAIT = Duration.ofSeconds(90);

  private final List<Closeable> open = new ArrayList<>(); // closed last to first
  private final List<FrontEnd> frontEnds = new ArrayList<>();
  private EmbeddedZooKeeper zooKeeper;
  private KvSettings kv;
  private ClusterSecret secret;
  private ChildBackends backends;
  private RingStore ringStore;

  private LoopbackCluster() {}

  /**
   * Starts one in {@code dir} (emptied if an earlier demo or local cluster made it; refused if
   * it holds anything else) with the {@code fawn.kv.*} {@code settings} given.
   */
  public static LoopbackCluster start(Path dir, int backendCount, int frontEndCount,
      Map<String, String> given) throws IOException {
    return start(dir, backendCount, frontEndCount, given, List.of());
  }

  /** As above, the back-ends' JVMs started with {@code backendJvmOptions} as well. */
  static LoopbackCluster start(Path dir, int backendCount, int frontEndCount,
      Map<String, String> given, List<String> backendJvmOptions) throws IOException {
    LocalCluster.startOver(dir);
    LoopbackCluster cluster = new LoopbackCluster();
    try {
      cluster.zooKeeper = EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0);
      cluster.open.add(cluster.zooKeeper);
      Map<String, String> settings = new HashMap<>(given);
      settings.put(KvKeys.ZOOKEEPER_QUORUM.name(), cluster.zooKeeper.connectString());
      settings.putIfAbsent(KvKeys.SECRET_FILE.name(), dir.resolve("secret").toString());
      settings.putIfAbsent(KvKeys.ZOOKEEPER_SESSION_TIMEOUT_MS.name(), "4000");
      settings.putIfAbsent(KvKeys.BOOTSTRAP_BACKENDS.name(), Integer.toString(backendCount));
      if (!settings.containsKey(KvKeys.ENERGY_COLLECTOR_PORT.name())) {
        // Each back-end counted as an Edison running only it (the paper's node, its figures).
        settings.putIfAbsent(KvKeys.ENERGY_IDLE_WATTS.name(), "1.40");
        settings.putIfAbsent(KvKeys.ENERGY_BUSY_WATTS.name(), "1.68");
      }
      cluster.kv = KvSettings.from(settings);
      ClusterSecret.loadOrCreate(cluster.kv.secretFile());
      cluster.secret = cluster.kv.secret(); // with TLS, when the settings turn it on
      List<String> args = new ArrayList<>();
      settings.forEach((k, v) -> args.add("-D" + k + "=" + v));
      if (!settings.containsKey(KvKeys.IO_THREADS.name())) {
        // The back-ends share this machine's cores: one loop per core each would have them
        // wake one another's threads for every message (measured: docs/fawn-kv.md, "The
        // transport").
        args.add("-D" + KvKeys.IO_THREADS.name() + "=" + Math.max(1,
            Runtime.getRuntime().availableProcessors() / backendCount));
      }
      cluster.backends = new ChildBackends(dir.resolve("backends"), backendJvmOptions, args);
      cluster.open.add(cluster.backends);
      for (int b = 0; b < backendCount; b++) {
        cluster.backends.start("b" + b, "127.0.0." + (b + 1));
      }
      for (int f = 0; f < frontEndCount; f++) {
        KvNodes.Node<FrontEnd> node = KvNodes.frontEnd(cluster.kv, "f" + f,
            new InetSocketAddress("127.0.0.1", 0));
        cluster.open.add(node);
        cluster.frontEnds.add(node.get());
      }
      CuratorFramework zk = KvNodes.session(cluster.kv, "loopback cluster");
      cluster.open.add(zk);
      cluster.ringStore = new RingStore(zk, new ClusterPaths(cluster.kv.cluster()));
      cluster.awaitRing("the first ring with " + backendCount + " back-ends",
          r -> r.members().size() == backendCount);
      cluster.awaitSlices();
      return cluster;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cluster.close();
      throw new IOException("interrupted starting the loopback cluster", e);
    }
  }

  public List<InetSocketAddress> frontEndAddresses() {
    return frontEnds.stream().map(FrontEnd::address).toList();
  }

  public List<FrontEnd> frontEnds() {
    return List.copyOf(frontEnds);
  }

  public ClusterSecret secret() {
    return secret;
  }

  /** The file holding the cluster secret, for clients in other processes. */
  public Path secretFile() {
    return kv.secretFile();
  }

  public String zooKeeperQuorum() {
    return zooKeeper.connectString();
  }

  /** The ring as stored now. */
  public Ring ring() throws IOException {
    return ringStore.read(ringStore.ringHash()).orElseThrow(
        () -> new IOException("the loopback cluster has no ring")).ring();
  }

  KvSettings settings() {
    return kv;
  }

  ChildBackends backends() {
    return backends;
  }

  /** The directory back-end {@code id} keeps its arc files in. */
  public Path dataOf(String id) {
    return backends.dataOf(id);
  }

  /** Starts back-end {@code id} as a child JVM on loopback address {@code host}. */
  public void startBackend(String id, String host) throws IOException {
    backends.start(id, host);
  }

  /** The back-end child processes running now, by id (their front-ends run in this JVM). */
  public Map<String, ProcessHandle> backendProcesses() {
    return backends.processes();
  }

  /** Kills back-end {@code id} with SIGKILL, as a power cut would. */
  public void killBackend(String id) throws InterruptedException {
    backends.kill9(id);
  }

  /** Each live back-end's answer to STATS now, by id (one that does not answer is left out). */
  public Map<String, StatsReport> backendStats() throws IOException {
    Ring ring = ring();
    List<Member> live = ring.members().stream().filter(m -> !ring.isDown(m.id())).toList();
    Map<String, StatsReport> byId = new HashMap<>();
    try (ConnectionPool pool = new ConnectionPool(Duration.ofSeconds(10),
        ProtocolLimits.MAX_FRAME_BYTES, secret)) {
      ClusterInspection.statsOf(pool, ring, live, System.err, kv.timeouts())
          .forEach((member, report) -> byId.put(member.id(), report));
    }
    return byId;
  }

  /**
   * Every write the chains have taken: the sum of the arcs' tails' last sequence numbers (a
   * chain numbers each put and delete once, whatever its client's retries), for tests that a
   * load put each record once even where its value did not change.
   */
  public long writesTaken() throws IOException {
    long sum = 0;
    for (StatsReport report : backendStats().values()) {
      for (StatsReport.Arc arc : report.arcs()) {
        if (arc.role() == StatsReport.Role.TAIL || arc.role() == StatsReport.Role.ALONE) {
          sum += arc.lastSequence();
        }
      }
    }
    return sum;
  }

  /** Polls the stored ring until {@code wanted}; names the back-end logs when it times out. */
  public Ring awaitRing(String what, Predicate<Ring> wanted)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    var hash = ringStore.ringHash();
    while (true) {
      var stored = ringStore.read(hash);
      if (stored.isPresent() && wanted.test(stored.get().ring())) {
        return stored.get().ring();
      }
      if (System.nanoTime() > deadline || !backends.exited().isEmpty()) {
        throw new IOException("waited " + WAIT.toSeconds() + " s for " + what + "; back-ends "
            + "that exited: " + backends.exited() + "; see their logs, e.g. "
            + backends.logOf("b0") + "; ring: " + stored.map(v -> v.ring().toString())
            .orElse("none"));
      }
      Thread.sleep(100); // a ring change takes 100s of ms; bounded by WAIT (90 s)
    }
  }

  private void awaitSlices() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    // Fenced too: until then a front-end refuses its keys, and a demo's first batch would
    // time the fencing (about 2 s after the first ring, measured) instead of the puts.
    while (frontEnds.stream().anyMatch(f -> f.sliceMap() == null || !f.sliceMap().settled()
        || f.sliceMap().owners().size() != frontEnds.size() || f.awaitsFence())) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the front-ends did not settle their slices and fence the"
            + " back-ends within " + WAIT.toSeconds() + " s");
      }
      Thread.sleep(50); // a handover settles in a few epochs of ms; bounded by WAIT
    }
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (int i = open.size() - 1; i >= 0; i--) {
      try {
        open.get(i).close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
