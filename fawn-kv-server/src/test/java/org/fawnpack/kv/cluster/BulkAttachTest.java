package org.fawnpack.kv.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.backend.BulkLoadDirectory;
import org.fawnpack.kv.bulk.ArcFileWriter;
import org.fawnpack.kv.bulk.BulkAttach;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.zookeeper.BulkLoadStore;
import org.fawnpack.kv.zookeeper.ClusterPaths;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bulk load by attached files on three back-ends (three arcs, chains of three) with a real
 * ZooKeeper for the load's state, against a model of what was put and loaded: every key read
 * through the front-end (whose cache held the old values) and from every member's file after
 * the cluster stopped; a reader never sees one arc loaded and another not; a staging failure
 * and a driver that dies before its commit leave nothing; a driver that dies after it leaves
 * the arcs gated until another finishes; a member without its staged copy gets the records
 * from its predecessor's log.
 */
class BulkAttachTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final int KEYS = 300;

  @TempDir
  Path dir;

  private TestingServer zooKeeper;
  private final List<CuratorFramework> sessions = new ArrayList<>();
  private InProcessCluster cluster;
  private ConnectionPool pool;
  private BulkLoadStore loads;
  private final ClusterPaths paths = new ClusterPaths("bulk");
  private final Map<String, String> model = new TreeMap<>();

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new TestingServer(true);
    loads = new BulkLoadStore(session(), paths);
    cluster = new InProcessCluster(dir, "bulk test ring key", 3, SECRET);
    BulkLoadStore backendView = new BulkLoadStore(session(), paths);
    for (Backend b : cluster.backends.values()) {
      b.followBulkLoads(new BulkLoadDirectory() {
        @Override
        public Map<String, Set<Long>> committed() throws IOException {
          return backendView.committed();
        }

        @Override
        public boolean known(String job) throws IOException {
          return backendView.read(job).isPresent();
        }
      });
    }
    pool = new ConnectionPool(DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET);
    try (FawnKvClient kv = client(DEADLINE)) {
      for (int i = 0; i < KEYS; i++) {
        put(kv, "key/" + i, "old-" + i);
      }
    }
  }

  @AfterEach
  void stop() throws IOException {
    pool.close();
    if (cluster != null) {
      cluster.close();
    }
    for (CuratorFramework s : sessions) {
      s.close();
    }
    zooKeeper.close();
  }

  @Test
  void load_overwritesAndNewKeys_visibleThroughTheCache_andInEveryMembersFile()
      throws Exception {
    try (FawnKvClient kv = client(DEADLINE)) {
      readAll(kv); // fills the front-end's cache with the old values
      readAll(kv);
    }
    Map<String, String> load = loadSet(0, 2 * KEYS);
    BulkAttach.Result result = driver().load("job-1", files("job-1", load));
    model.putAll(load);
    assertEquals(3, result.arcs());
    try (FawnKvClient kv = client(DEADLINE)) {
      readAll(kv);
      put(kv, "key/7", "after the load"); // writes go on after the load's numbers
      assertEquals("after the load", text(kv.get(bytes("key/7"))));
    }
    assertNoBulkFilesLeft();
    assertTrue(loads.read("job-1").isEmpty(), "the load's znode is gone once it is visible");
    assertEveryMembersFileEqualsTheModel();
  }

  @Test
  void readerNeverSeesOneArcLoadedAndAnotherNot() throws Exception {
    List<Chain> chains = cluster.ring.chains();
    String inFirst = keyIn(chains.get(0));
    String inSecond = keyIn(chains.get(1));
    try (FawnKvClient kv = client(DEADLINE)) {
      put(kv, inFirst, "before");
      put(kv, inSecond, "before");
    }
    Map<String, String> load = new TreeMap<>();
    load.put(inFirst, "loaded");
    load.put(inSecond, "loaded");
    load.putAll(loadSet(0, KEYS)); // enough records that the apply takes a moment
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<String> violation = new AtomicReference<>();
    AtomicInteger before = new AtomicInteger();
    AtomicInteger after = new AtomicInteger();
    Thread reader = new Thread(() -> {
      try (FawnKvClient kv = client(DEADLINE)) {
        for (int round = 0; round < 100_000 && !stop.get(); round++) {
          String first = round % 2 == 0 ? inFirst : inSecond;
          String second = round % 2 == 0 ? inSecond : inFirst;
          String a = text(kv.get(bytes(first)));
          String b = text(kv.get(bytes(second)));
          if (a.equals("loaded") && b.equals("before")) {
            violation.set("read " + first + " loaded, then " + second + " not (round " + round
                + ")");
          }
          (b.equals("loaded") ? after : before).incrementAndGet();
        }
      } catch (IOException | RuntimeException e) {
        violation.compareAndSet(null, "the reader failed: " + e);
      }
    });
    reader.start();
    awaitCount(before, 20, "reads of the old values before the load", violation);
    int afterAtLoad = after.get();
    driver().load("job-2", files("job-2", load));
    model.putAll(load);
    awaitCount(after, afterAtLoad + 20, "reads after the load", violation);
    stop.set(true);
    reader.join(DEADLINE.toMillis());
    assertNull(violation.get());
    assertTrue(before.get() > 0 && after.get() > 0, "the reader saw both states: " + before
        + " before, " + after + " after");
  }

  @Test
  void stagingFails_nothingVisible_noFilesLeft() throws Exception {
    List<BulkAttach.ArcFile> files = files("job-3", loadSet(0, KEYS));
    BulkAttach.ArcFile bad = files.get(1);
    files.set(1, new BulkAttach.ArcFile(bad.range(), bad.bytes(), bad.crc32c() + 1,
        bad.source())); // what arrives does not match what the driver says
    IOException failure = assertThrows(IOException.class, () -> driver().load("job-3", files));
    assertTrue(failure.getMessage().contains("CRC32C"), failure.getMessage());
    try (FawnKvClient kv = client(DEADLINE)) {
      readAll(kv);
    }
    assertNoBulkFilesLeft();
    assertTrue(loads.read("job-3").isEmpty());
  }

  @Test
  void driverSessionEndsBeforeItsCommit_backendsDropTheStagedFiles() throws Exception {
    CuratorFramework driverSession = session();
    new BulkLoadStore(driverSession, paths).begin("job-4");
    Chain chain = cluster.ring.chains().get(0);
    byte[] piece = new byte[] {1, 2, 3};
    for (Member m : chain.members()) {
      Frame answer = pool.to(m).call(MessageType.BULK_STAGE, 0, new Frame.Payload()
          .addBytes(bytes("job-4")).addLong(chain.range().endInclusive()).addLong(0)
          .addBytes(piece).addLong(-1).addLong(0).toBytes(), DEADLINE);
      assertEquals(MessageType.OK, answer.type(), MessageType.messageOf(answer));
    }
    assertTrue(Files.exists(dir.resolve("b0/bulk/job-4")));
    driverSession.close(); // the driver dies: its ephemeral node goes with its session
    awaitNoBulkFilesLeft();
    try (FawnKvClient kv = client(DEADLINE)) {
      readAll(kv);
    }
  }

  @Test
  void driverDiesAfterTheCommit_arcsGated_untilAnotherDriverFinishes() throws Exception {
    Map<String, String> load = loadSet(0, KEYS);
    BulkAttach.Prepared prepared = driver().prepare("job-5", files("job-5", load));
    // No finish: the back-ends learn of the committed load on their own check and gate it:
    // a write to a loaded arc is held (up to GateWaits.MAX_WAIT_MS), so a client with a short
    // deadline gives up. (Gets may still be answered from the front-end's cache: the load is
    // not applied yet.) The probe key is in no load and in no model: a held write may land
    // once the gate opens, as any write whose client gave up may.
    String probe = "probe"; // every arc is loaded: any key is in a gated arc
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      try (FawnKvClient kv = client(Duration.ofMillis(300))) {
        kv.put(bytes(probe), bytes("while committed"));
      } catch (KvException e) {
        break; // held while gated, past the client's deadline
      }
      assertTrue(System.nanoTime() < deadline, "the arcs were never gated");
      Thread.sleep(100);
    }
    model.putAll(load);
    driver().finish("job-5", prepared.arcEnds());
    try (FawnKvClient kv = client(DEADLINE)) {
      readAll(kv);
      String landed = text(kv.get(bytes(probe))); // acknowledged before the gate, or held
      assertTrue(landed == null || landed.equals("while committed"), landed);
      if (landed != null) {
        model.put(probe, landed);
      }
    }
    assertNoBulkFilesLeft();
    assertEveryMembersFileEqualsTheModel();
  }

  @Test
  void memberWithoutItsStagedCopy_getsTheRecordsFromItsPredecessor() throws Exception {
    Map<String, String> load = loadSet(0, KEYS);
    BulkAttach.Prepared prepared = driver().prepare("job-6", files("job-6", load));
    // The middle of each chain lost its copy (as a member that joined after the staging).
    for (Chain chain : cluster.ring.chains()) {
      Member middle = chain.members().get(1);
      Path staged = dir.resolve(middle.id()).resolve("bulk/job-6").resolve(
          String.format("arc-%016x.fds", chain.range().endInclusive()));
      assertTrue(Files.deleteIfExists(staged), staged + " was staged");
    }
    model.putAll(load);
    driver().finish("job-6", prepared.arcEnds());
    try (FawnKvClient kv = client(DEADLINE)) {
      readAll(kv);
    }
    assertEveryMembersFileEqualsTheModel();
  }

  // ---------------------------------------------------------------------------------------

  private BulkAttach driver() {
    return new BulkAttach(loads, () -> cluster.ring, () -> List.of(new Member("f",
        cluster.frontEnd.address().getAddress().getHostAddress(),
        cluster.frontEnd.address().getPort(), null)), pool, DEADLINE);
  }

  /** Keys {@code from..to-1}: the first KEYS overwrite what start() put, the rest are new. */
  private Map<String, String> loadSet(int from, int to) {
    Map<String, String> load = new TreeMap<>();
    for (int i = from; i < to; i++) {
      load.put("key/" + i, "loaded-" + i + "-" + "v".repeat(i % 50));
    }
    return load;
  }

  /** One file per arc with the load's keys in it. */
  private List<BulkAttach.ArcFile> files(String job, Map<String, String> load)
      throws IOException {
    List<BulkAttach.ArcFile> files = new ArrayList<>();
    Path out = Files.createDirectories(dir.resolve("files-" + job));
    for (Chain chain : cluster.ring.chains()) {
      Path file = out.resolve(String.format("arc-%016x.fds", chain.range().endInclusive()));
      try (ArcFileWriter writer = new ArcFileWriter(cluster.ring.hash(), chain.range(), file,
          load.size())) {
        for (Map.Entry<String, String> e : load.entrySet()) {
          if (chain.range().contains(cluster.ring.hash().position(bytes(e.getKey())))) {
            writer.put(bytes(e.getKey()), bytes(e.getValue()));
          }
        }
        ArcFileWriter.Written written = writer.finish();
        files.add(new BulkAttach.ArcFile(chain.range(), written.bytes(), written.crc32c(),
            () -> Files.newInputStream(file)));
      }
    }
    return files;
  }

  /** Polls (bounded) until {@code count} reaches {@code atLeast}, or the reader failed. */
  private static void awaitCount(AtomicInteger count, int atLeast, String what,
      AtomicReference<String> readerProblem) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (count.get() < atLeast) {
      assertNull(readerProblem.get());
      assertTrue(System.nanoTime() < deadline, "only " + count.get() + " " + what);
      Thread.sleep(10);
    }
  }

  private String keyIn(Chain chain) {
    for (int i = 0; ; i++) {
      String key = "pair/" + i;
      if (chain.range().contains(cluster.ring.hash().position(bytes(key)))) {
        return key;
      }
    }
  }

  private void readAll(FawnKvClient kv) throws IOException {
    for (Map.Entry<String, String> e : model.entrySet()) {
      assertEquals(e.getValue(), text(kv.get(bytes(e.getKey()))), e.getKey());
    }
  }

  private void put(FawnKvClient kv, String key, String value) throws IOException {
    kv.put(bytes(key), bytes(value));
    model.put(key, value);
  }

  private void assertNoBulkFilesLeft() throws IOException {
    for (String id : cluster.backends.keySet()) {
      Path bulk = dir.resolve(id).resolve("bulk");
      if (Files.exists(bulk)) {
        try (var left = Files.list(bulk)) {
          assertEquals(List.of(), left.toList(), "bulk files left on " + id);
        }
      }
    }
  }

  private void awaitNoBulkFilesLeft() throws Exception {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      try {
        assertNoBulkFilesLeft();
        return;
      } catch (AssertionError e) {
        assertTrue(System.nanoTime() < deadline, e.getMessage());
        Thread.sleep(100);
      }
    }
  }

  /** Stops the cluster and reads every key of the model from every member's file. */
  private void assertEveryMembersFileEqualsTheModel() throws IOException {
    var ring = cluster.ring;
    pool.close();
    cluster.close();
    cluster = null;
    for (Chain chain : ring.chains()) {
      for (Member m : chain.members()) {
        try (Datastore file = Datastore.open(Backend.arcFileOf(dir.resolve(m.id()),
            chain.range().endInclusive()), InProcessCluster.CONFIG)) {
          Map<String, String> found = new HashMap<>();
          file.scan((key, value) -> found.put(new String(EngineKeys.userKey(key),
              StandardCharsets.UTF_8), text(value)));
          Map<String, String> expected = new HashMap<>();
          model.forEach((k, v) -> {
            if (chain.range().contains(ring.hash().position(bytes(k)))) {
              expected.put(k, v);
            }
          });
          assertEquals(expected, found, m.id() + "'s file of " + chain.range());
        }
      }
    }
  }

  private FawnKvClient client(Duration deadline) throws IOException {
    return FawnKvClient.connect(cluster.frontEnd.address(), deadline, SECRET);
  }

  private CuratorFramework session() {
    CuratorFramework zk = CuratorFrameworkFactory.builder()
        .connectString(zooKeeper.getConnectString()).sessionTimeoutMs(4_000)
        .connectionTimeoutMs(10_000).retryPolicy(new RetryNTimes(20, 100)).build();
    zk.start();
    sessions.add(zk);
    return zk;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] b) {
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }
}
