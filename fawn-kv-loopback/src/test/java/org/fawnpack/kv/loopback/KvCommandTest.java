package org.fawnpack.kv.loopback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.fawnpack.kv.cli.KvCommand;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./fawn kv} against a local cluster (embedded ZooKeeper, three back-ends, one
 * front-end, all in this JVM on loopback): what a user types, what it prints, its exit codes.
 */
class KvCommandTest {
  @TempDir
  static Path dir;

  private static LocalCluster cluster;
  private static String frontEnd;
  private static String secretSetting;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void startCluster() throws Exception {
    secretSetting = "-Dfawn.kv.secret-file=" + dir.resolve("secret");
    cluster = LocalCluster.start(Map.of("fawn.kv.vnodes", "2",
        "fawn.kv.secret-file", dir.resolve("secret").toString(),
        "fawn.kv.energy.idle-watts", "1.40", "fawn.kv.energy.busy-watts", "1.68"), 3, 1, dir,
        Duration.ofSeconds(60));
    InetSocketAddress f = cluster.frontEndAddresses().get(0);
    frontEnd = f.getAddress().getHostAddress() + ":" + f.getPort();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    cluster.close();
  }

  private int run(String... args) {
    out.reset();
    err.reset();
    return LoopbackCommand.command(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)).run(args);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void putGetDelete_throughTheFrontEnd_printsValuesAndExitCodes() {
    assertEquals(0, run(secretSetting, "put", "--frontend", frontEnd, "greeting",
        "hello wimpy world"), err());
    assertEquals(0, run(secretSetting, "get", "--frontend", frontEnd, "greeting"), err());
    assertEquals("hello wimpy world\n", out());
    assertEquals(0, run(secretSetting, "delete", "--frontend", frontEnd, "greeting"), err());
    assertEquals(1, run(secretSetting, "get", "--frontend", frontEnd, "greeting"));
    assertTrue(err().contains("no value under 'greeting'"), err());
    assertEquals(1, run(secretSetting, "delete", "--frontend", frontEnd, "greeting"));
  }

  @Test
  void get_firstFrontEndDown_usesTheNextInTheList() throws Exception {
    int down;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getByName("127.0.0.1"))) {
      down = probe.getLocalPort(); // nothing listens there once the probe closes
    }
    String both = "127.0.0.1:" + down + "," + frontEnd;
    assertEquals(0, run(secretSetting, "put", "--frontend", both, "listed", "twice"), err());
    assertEquals(0, run(secretSetting, "get", "--frontend", both, "listed"), err());
    assertEquals("twice\n", out());
    assertEquals(1, run(secretSetting, "get", "--frontend", "127.0.0.1:" + down, "listed"));
    assertTrue(err().contains("no front-end of [/127.0.0.1:" + down + "] can be reached"), err());
  }

  @Test
  void ring_withTheQuorum_printsEpochBackendsAndEveryArc() {
    assertEquals(0, run("-Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum(), "ring"),
        err());
    String printed = out();
    assertTrue(printed.startsWith("ring epoch 1: 3 back-ends x 2 virtual nodes, 3 replicas"),
        printed);
    assertEquals(3, printed.lines().filter(l -> l.startsWith("  back-end ")).count(), printed);
    assertEquals(6, printed.lines().filter(l -> l.startsWith("  arc ")).count(), printed);
    assertEquals(1, run("-D", "fawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum(),
        "-Dfawn.kv.cluster=other", "ring"));
    assertTrue(err().contains("cluster 'other' has no ring yet"), err());
  }

  @Test
  void leave_ofAnUnknownBackendOrOneTheRingCannotSpare_refusedByName() {
    String quorum = "-Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum();
    assertEquals(1, run(quorum, "leave", "--id", "b9"));
    assertTrue(err().contains("back-end b9 is not in the ring"), err());
    // Three back-ends, chains of three: none can leave without leaving chains short.
    assertEquals(1, run(quorum, "leave", "--id", "b0", "--timeout-s", "30"));
    assertTrue(err().contains("refused") && err().contains("cannot leave"), err());
    assertEquals(0, run(quorum, "ring"), err());
    assertTrue(!out().contains("(down)") && !out().contains("(leaving)"), out());
    assertEquals(2, run(quorum, "leave"));
    assertTrue(err().contains("--id"), err());
  }

  /** The figures in the stats table: back-end id to its columns. */
  private Map<String, String[]> statsRows() {
    assertEquals(0, run("-Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum(), secretSetting,
        "stats", "--interval-ms", "50"), err());
    Map<String, String[]> rows = new java.util.TreeMap<>();
    out().lines().filter(l -> l.matches("b[0-9]+ .*")).forEach(l -> {
      String[] words = l.trim().split(" +");
      rows.put(words[0], words);
    });
    assertEquals(3, rows.size(), out());
    return rows;
  }

  /** The front-end's row of the last stats table (one front-end: f0). */
  private String[] frontEndRow() {
    String[] row = out().lines().filter(l -> l.startsWith("f0 ")).findFirst()
        .orElseThrow(() -> new AssertionError("no front-end row: " + out())).trim().split(" +");
    // Columns: name, slice epoch, buckets, gets, writes, gets/s, hits, hit rate, cached.
    assertEquals("1024", row[2], "the only front-end serves every bucket: " + out());
    return row;
  }

  private static long column(Map<String, String[]> rows, int column) {
    return rows.values().stream().mapToLong(w -> Long.parseLong(w[column])).sum();
  }

  /** Stages and commits one arc's file holding {@code key}, as a driver that then stops. */
  private static void commitOneKey(org.apache.curator.framework.CuratorFramework zk,
      String job, String key, String value) throws Exception {
    try (org.fawnpack.kv.wire.ConnectionPool pool = new org.fawnpack.kv.wire.ConnectionPool(
        Duration.ofSeconds(10), org.fawnpack.kv.wire.ProtocolLimits.MAX_FRAME_BYTES,
        org.fawnpack.kv.auth.ClusterSecret.load(dir.resolve("secret")))) {
      var paths = new org.fawnpack.kv.zookeeper.ClusterPaths("fawn");
      var rings = new org.fawnpack.kv.zookeeper.RingStore(zk, paths);
      var ring = rings.read(rings.ringHash()).orElseThrow().ring();
      var chain = ring.chainFor(ring.hash().position(key.getBytes(StandardCharsets.UTF_8)));
      Path file = dir.resolve(job + ".fds");
      org.fawnpack.kv.bulk.ArcFileWriter.Written written;
      try (var writer = new org.fawnpack.kv.bulk.ArcFileWriter(ring.hash(), chain.range(),
          file, 1)) {
        writer.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
        written = writer.finish();
      }
      org.fawnpack.kv.bulk.BulkDrivers.of(zk, paths, pool, Duration.ofSeconds(30))
          .prepare(job, List.of(new org.fawnpack.kv.bulk.BulkAttach.ArcFile(chain.range(),
              written.bytes(), written.crc32c(), () -> java.nio.file.Files.newInputStream(
                  file))));
    }
  }

  @Test
  void bulkFinish_finishesACommittedLoadWhoseDriverStopped_andSaysWhenThereIsNone()
      throws Exception {
    String quorum = "-Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum();
    assertEquals(1, run(quorum, secretSetting, "bulk-finish", "--job", "no-such-job"));
    assertTrue(err().contains("no-such-job"), err());
    // The driver commits, then hangs: its session (and so its "driver" znode) stays, so the
    // front-ends' finishers leave the load alone and the operator finishes it.
    try (var zk = org.fawnpack.kv.zookeeper.ZooKeeperSessions.open(cluster.zooKeeperQuorum(),
        10_000)) {
      commitOneKey(zk, "cli-job", "bulk-key-cli", "loaded");
      assertEquals(0, run(quorum, secretSetting, "bulk-finish"), err());
      assertTrue(out().contains("bulk load cli-job is visible on its 1 arcs"), out());
    }
    assertEquals(0, run(secretSetting, "get", "--frontend", frontEnd, "bulk-key-cli"), err());
    assertEquals("loaded", out().trim());
    assertEquals(0, run(quorum, secretSetting, "bulk-finish"), err());
    assertTrue(out().contains("no committed bulk load"), out());
  }

  @Test
  void committedLoadWhoseDriverDied_isFinishedByTheFrontEnds() throws Exception {
    try (var zk = org.fawnpack.kv.zookeeper.ZooKeeperSessions.open(cluster.zooKeeperQuorum(),
        10_000)) {
      commitOneKey(zk, "orphan-job", "bulk-key-orphan", "finished by a front-end");
    } // the driver's session ends: its "driver" znode goes with it
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (run(secretSetting, "get", "--frontend", frontEnd, "bulk-key-orphan") != 0) {
      assertTrue(System.nanoTime() < deadline, "the orphaned load was never finished: "
          + err());
      Thread.sleep(200);
    }
    assertEquals("finished by a front-end", out().trim());
  }

  @Test
  void stats_afterNewKeysAndGets_countsThemOnceAtTheHeadThriceInAllAndEachGetOnce() {
    Map<String, String[]> before = statsRows();
    String[] frontBefore = frontEndRow();
    for (int k = 0; k < 12; k++) {
      assertEquals(0, run(secretSetting, "put", "--frontend", frontEnd, "stats-key-" + k, "v"),
          err());
    }
    for (int k = 0; k < 5; k++) {
      assertEquals(0, run(secretSetting, "get", "--frontend", frontEnd, "stats-key-" + k),
          err());
    }
    Map<String, String[]> after = statsRows();
    String[] frontAfter = frontEndRow();
    assertEquals(Long.parseLong(frontBefore[3]) + 5, Long.parseLong(frontAfter[3]), out());
    assertEquals(Long.parseLong(frontBefore[4]) + 12, Long.parseLong(frontAfter[4]), out());
    // Columns: id, roles, keys(head), keys(all), log bytes, gets, writes, gets/s, writes/s.
    assertEquals(column(before, 2) + 12, column(after, 2), out());
    assertEquals(3 * column(after, 2), column(after, 3), "r = 3: every key on three");
    assertEquals(column(before, 5) + 5, column(after, 5), "each get served once, by a tail");
    assertEquals(column(before, 6) + 12, column(after, 6), "each put taken once, by a head");
    assertTrue(out().contains("keys in the cluster (each counted at its head): "
        + column(after, 2)), out());
  }

  @Test
  void stats_withThePowerModel_givesQueriesPerJouleOverTheBackEndsJoules() {
    assertEquals(0, run("-Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum(), secretSetting,
        "stats", "--interval-ms", "1000"), err());
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("queries per joule over the"
        + " interval: ([0-9.]+) \\(([0-9]+) queries, ([0-9.]+) J on 3 metered back-ends;"
        + " ESTIMATED from a power model\\)").matcher(out());
    assertTrue(m.find(), out());
    double joules = Double.parseDouble(m.group(3));
    // Three nodes of 1.40 to 1.68 W over about a second (each back-end's two readings are
    // taken a STATS round trip apart, so allow for the rounds).
    assertTrue(joules >= 3 * 1.40 * 0.9 && joules <= 3 * 1.68 * 2, out());
    assertEquals(Long.parseLong(m.group(2)) / joules, Double.parseDouble(m.group(1)), 0.1,
        out());
  }

  @Test
  void scan_withAPrefix_printsExactlyTheKeysPutUnderIt() {
    String quorum = "-Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum();
    java.util.Set<String> expected = new java.util.TreeSet<>();
    for (int k = 0; k < 12; k++) {
      assertEquals(0, run(secretSetting, "put", "--frontend", frontEnd, "scan-test/" + k,
          "value " + k), err());
      expected.add("scan-test/" + k + "\tvalue " + k);
    }
    assertEquals(0, run(secretSetting, "delete", "--frontend", frontEnd, "scan-test/3"));
    expected.remove("scan-test/3\tvalue 3");

    assertEquals(0, run(quorum, secretSetting, "scan", "--prefix", "scan-test/"), err());
    assertEquals(expected, new java.util.TreeSet<>(List.of(out().split("\n"))));
    assertTrue(err().contains("11 entries"), err());
    assertEquals(0, run(quorum, secretSetting, "scan", "--prefix", "scan-test/", "--print",
        "count"), err());
    assertEquals("11", out().trim());
    assertEquals(0, run(quorum, secretSetting, "scan", "--prefix", "scan-test/1", "--print",
        "keys", "--limit", "2"), err());
    assertEquals(2, out().split("\n").length, out());
    assertTrue(out().startsWith("scan-test/1"), out());
    assertEquals(2, run(quorum, secretSetting, "scan", "--print", "values"));
    assertTrue(err().contains("--print is entries, keys or count"), err());
  }

  @Test
  void usageErrors_exitTwoNamingTheProblem() {
    assertEquals(2, run());
    assertEquals(0, run("--help"));
    assertTrue(out().contains("Usage: fawn kv"));
    assertEquals(2, run("dance"));
    assertTrue(err().contains("unknown command 'dance'"), err());
    assertEquals(2, run("backend", "--id", "b9", "--data", dir.resolve("b9").toString()));
    assertTrue(err().contains("fawn.kv.zookeeper.quorum"), err());
    assertEquals(2, run("-Dfawn.kv.colour=blue", "ring"));
    assertTrue(err().contains("fawn.kv.colour = blue is invalid"), err());
    assertEquals(2, run("-Dfawn.kv.replicas=0", "ring"));
    assertTrue(err().contains("fawn.kv.replicas = 0 is invalid"), err());
    assertEquals(2, run(secretSetting, "put", "--frontend", frontEnd, "only-a-key"));
    assertTrue(err().contains("expected KEY VALUE"), err());
    assertEquals(2, run(secretSetting, "get", "--frontend", "nowhere", "k"));
    assertTrue(err().contains("--frontend wants HOST:PORT[,HOST:PORT...], got 'nowhere'"),
        err());
    assertEquals(2, run("-Dfawn.kv.zookeeper.quorum=" + cluster.zooKeeperQuorum(),
        "-Dfawn.kv.energy.idle-watts=1.4", "backend", "--id", "b9", "--data",
        dir.resolve("b9").toString()));
    assertTrue(err().contains("fawn.kv.energy.busy-watts"), err());
    assertEquals(2, run("local", "--backends", "many"));
    assertTrue(err().contains("--backends must be a whole number"), err());
    // The servers' own command line, without the loopback harness, points there by name.
    out.reset();
    err.reset();
    assertEquals(2, new KvCommand(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)).run(new String[] {"demo"}));
    assertTrue(err().contains("demo runs a cluster on loopback, from fawn-kv-loopback.jar"),
        err());
  }
}
