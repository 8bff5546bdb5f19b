package org.fawnpack.kv.loopback;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.cli.KvNodes;
import org.fawnpack.kv.cli.KvSettings;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.frontend.FrontEnd;

/**
 * A whole FAWN-KV cluster in one process on loopback: an embedded ZooKeeper, back-ends on
 * 127.0.0.1, 127.0.0.2, ... (distinct addresses, so chains see distinct hosts) and front-ends,
 * up once every node follows the first ring. Each start is a new cluster: the directory of an
 * earlier local cluster (marked by {@value #MARKER}) is emptied first, since its ZooKeeper
 * would bring back a ring whose back-ends listened on other ports; a directory without the
 * mark that is not empty is refused, so no one's files are deleted by mistake.
 */
final class LocalCluster implements Closeable {
  static final String MARKER = ".fawn-kv-local";
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
      LocalCluster.class);

  private final EmbeddedZooKeeper zooKeeper;
  private final List<KvNodes.Node<Backend>> backends = new ArrayList<>();
  private final List<KvNodes.Node<FrontEnd>> frontEnds = new ArrayList<>();

  private KvSettings settings;

  private LocalCluster(EmbeddedZooKeeper zooKeeper) {
    this.zooKeeper = zooKeeper;
  }

  static LocalCluster start(Map<String, String> settings, int backendCount, int frontEndCount,
      Path dir, Duration wait) throws IOException {
    if (backendCount < 1 || backendCount > 250 || frontEndCount < 1) {
      throw new IllegalArgumentException("a local cluster has 1..250 back-ends and at least one"
          + " front-end: " + backendCount + ", " + frontEndCount);
    }
    startOver(dir);
    LocalCluster cluster = new LocalCluster(EmbeddedZooKeeper.start(dir.resolve("zookeeper"), 0));
    try {
      Map<String, String> local = new HashMap<>(settings);
      local.put(KvKeys.ZOOKEEPER_QUORUM.name(), cluster.zooKeeper.connectString());
      local.putIfAbsent(KvKeys.BOOTSTRAP_BACKENDS.name(), Integer.toString(backendCount));
      KvSettings s = KvSettings.from(local);
      cluster.settings = s;
      ClusterSecret.loadOrCreate(s.secretFile());
      for (int f = 0; f < frontEndCount; f++) {
        cluster.frontEnds.add(KvNodes.frontEnd(s, "f" + f,
            new InetSocketAddress("127.0.0.1", 0)));
      }
      for (int b = 0; b < backendCount; b++) {
        cluster.backends.add(KvNodes.backend(s, "b" + b,
            new InetSocketAddress("127.0.0." + (b + 1), 0), 0, dir.resolve("b" + b)));
      }
      cluster.awaitFirstRing(wait);
      return cluster;
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  /** Empties an earlier local cluster's directory (or refuses another one), then marks it. */
  static void startOver(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      boolean ours = Files.exists(dir.resolve(MARKER));
      try (Stream<Path> entries = Files.list(dir)) {
        if (!ours && entries.findAny().isPresent()) {
          throw new IllegalArgumentException("--dir " + dir + " is not empty and was not made"
              + " by fawn kv local or demo: give a new or empty directory");
        }
      }
      if (ours) {
        try (Stream<Path> all = Files.walk(dir)) {
          for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
            if (!p.equals(dir)) {
              Files.delete(p);
            }
          }
        }
        LOG.info("local cluster: starting over in {} (the last local cluster's files removed)",
            dir);
      }
    }
    Files.createDirectories(dir);
    Files.createFile(dir.resolve(MARKER));
  }

  private void awaitFirstRing(Duration wait) throws IOException {
    long deadline = System.nanoTime() + wait.toNanos();
    // Ready: every node has a ring, and every front-end serves its share of a settled map.
    while (backends.stream().anyMatch(b -> b.get().epoch() < 1)
        || frontEnds.stream().anyMatch(f -> f.get().epoch() < 1
            || !servesSettledShare(f.get(), frontEnds.size()))) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the local cluster had no ring and settled slices after "
            + wait.toSeconds() + " s");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for the first ring", e);
      }
    }
  }

  private static boolean servesSettledShare(FrontEnd f, int frontEnds) {
    org.fawnpack.kv.slice.SliceMap map = f.sliceMap();
    return map != null && map.settled() && map.owners().size() == frontEnds;
  }

  String zooKeeperQuorum() {
    return zooKeeper.connectString();
  }

  List<InetSocketAddress> frontEndAddresses() {
    return frontEnds.stream().map(f -> f.get().address()).toList();
  }

  /** The running front-ends, oldest first. */
  List<FrontEnd> frontEnds() {
    return frontEnds.stream().map(KvNodes.Node::get).toList();
  }

  /** Stops front-end {@code name} (its ZooKeeper session closes with it). */
  void stopFrontEnd(String name) throws IOException {
    KvNodes.Node<FrontEnd> node = frontEnds.stream()
        .filter(f -> f.get().endpoint().name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no front-end " + name));
    frontEnds.remove(node);
    node.close();
  }

  /** Starts one more front-end on loopback. */
  FrontEnd addFrontEnd(String name) throws IOException {
    KvNodes.Node<FrontEnd> node = KvNodes.frontEnd(settings, name,
        new InetSocketAddress("127.0.0.1", 0));
    frontEnds.add(node);
    return node.get();
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (Closeable node : concat()) {
      try {
        node.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    zooKeeper.close();
    if (first != null) {
      throw first;
    }
  }

  private List<Closeable> concat() {
    List<Closeable> all = new ArrayList<>(frontEnds);
    all.addAll(backends);
    return all;
  }
}
