package org.fawnpack.kv.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.scan.RangeScan;
import org.fawnpack.kv.scan.ScanPage;
import org.fawnpack.kv.scan.ScanRequest;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.StatsReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Range scans from the arcs' tails on five back-ends in one process (chains of three): the
 * entries read are exactly those of a model map of what the clients wrote (puts, overwrites,
 * deletes), each once, when a tail is taken out of the ring half-way through the scan too; and
 * what a back-end refuses (not the tail, a range across arcs, another epoch, a bad page size).
 */
class RangeScanTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir
  Path dir;

  private InProcessCluster cluster;
  private ConnectionPool pool;
  private final Map<String, String> model = new HashMap<>();

  @BeforeEach
  void startAndLoad() throws IOException {
    cluster = new InProcessCluster(dir, "range scan test ring key", 5, SECRET);
    pool = new ConnectionPool(DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET);
    Random random = new Random(7);
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, SECRET)) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> values = new ArrayList<>();
      for (int i = 0; i < 3_000; i++) {
        String key = (i % 3 == 0 ? "user/" : "item/") + i;
        String value = "v" + i + "-" + "x".repeat(random.nextInt(200));
        keys.add(bytes(key));
        values.add(bytes(value));
        model.put(key, value);
      }
      kv.putAll(keys, values);
      for (int i = 0; i < 3_000; i += 7) {
        String key = (i % 3 == 0 ? "user/" : "item/") + i;
        if (i % 2 == 0) {
          kv.delete(bytes(key));
          model.remove(key);
        } else {
          kv.put(bytes(key), bytes("again " + i));
          model.put(key, "again " + i);
        }
      }
    }
  }

  @AfterEach
  void stop() throws IOException {
    pool.close();
    cluster.close();
  }

  private RangeScan scan(KeyRange range, RangeScan.Options options) {
    return new RangeScan(() -> cluster.ring, pool, range, options);
  }

  /** Reads the scan to its end; a key read twice fails the test. */
  static Map<String, String> readAll(RangeScan scan, Map<String, String> read)
      throws IOException {
    for (ScanPage.ScanEntry e = scan.next(); e != null; e = scan.next()) {
      String key = new String(e.key(), StandardCharsets.UTF_8);
      assertNull(read.put(key, new String(e.value(), StandardCharsets.UTF_8)),
          key + " read twice");
    }
    return read;
  }

  @Test
  void wholeRing_inSmallPages_readsEveryEntryOnce() throws IOException {
    RangeScan scan = scan(KeyRange.wholeRing(), RangeScan.Options.defaults()
        .withPageBytes(4096));
    assertEquals(model, readAll(scan, new HashMap<>()));
    assertEquals(1.0, scan.progress(), 1e-9);
    long bytes = model.entrySet().stream().mapToLong(e -> e.getKey().length()
        + e.getValue().length()).sum();
    assertTrue(scan.pages() >= bytes / 4096, scan.pages() + " pages for " + bytes + " bytes");
    assertEquals(0, scan.retries());
  }

  @Test
  void keyPrefix_onlyItsKeys() throws IOException {
    Map<String, String> users = new HashMap<>();
    model.forEach((k, v) -> {
      if (k.startsWith("user/")) {
        users.put(k, v);
      }
    });
    assertEquals(users, readAll(scan(KeyRange.wholeRing(), RangeScan.Options.defaults()
        .withPrefix(bytes("user/"))), new HashMap<>()));
  }

  @Test
  void tailLeavesTheRingMidScan_theNewTailGoesOnAfterTheSameSequence() throws IOException {
    // The reader learns of the new ring only after it found the old tail gone, as from a
    // ZooKeeper watch that comes later than the failure.
    java.util.concurrent.atomic.AtomicReference<org.fawnpack.kv.ring.Ring> stale =
        new java.util.concurrent.atomic.AtomicReference<>();
    RangeScan scan = new RangeScan(() -> {
      org.fawnpack.kv.ring.Ring old = stale.getAndSet(null);
      return old != null ? old : cluster.ring;
    }, pool, KeyRange.wholeRing(), RangeScan.Options.defaults().withPageBytes(2048));
    Map<String, String> read = new HashMap<>();
    for (int i = 0; i < model.size() / 3; i++) {
      ScanPage.ScanEntry e = scan.next();
      read.put(new String(e.key(), StandardCharsets.UTF_8),
          new String(e.value(), StandardCharsets.UTF_8));
    }
    double before = scan.progress();
    assertTrue(before > 0.05 && before < 0.95, "progress " + before);
    Chain serving = cluster.ring.chainFor(scan.reading().endInclusive());
    String tail = serving.tail().id();
    stale.set(cluster.ring);
    cluster.backends.remove(tail).close();
    cluster.useRing(cluster.ring.withMembersDown(List.of(tail)));

    readAll(scan, read);
    assertEquals(model, read);
    // The page asked ahead of the old tail, and the ask by the stale ring, fail; the new
    // tail answers. (Whether the page asked ahead was answered before the close is timing.)
    long retries = scan.retries();
    assertTrue(retries >= 1 && retries <= 2, retries + " pages asked again");
  }

  @Test
  void removalMergesTheArcBeingRead_theScanFailsByName_insteadOfRepeatingEntries()
      throws IOException {
    // Small pages, and the ring changes once the second arc's first page is being read.
    RangeScan scan = scan(KeyRange.wholeRing(), new RangeScan.Options(512, new byte[0],
        Duration.ofSeconds(5), Duration.ofSeconds(5), 0, host -> false));
    Map<String, String> read = new HashMap<>();
    scan.next();
    KeyRange first = scan.reading();
    while (first.equals(scan.reading())) {
      scan.next();
    }
    long pages = scan.pages(); // the first arc's last page is still being read
    while (scan.pages() == pages) {
      scan.next();
    }
    KeyRange reading = scan.reading();
    Chain serving = cluster.ring.chainFor(reading.endInclusive());
    // The arc's owner (its virtual node ends the arc) goes for good: the arc merges into the
    // next one. The reader learns of that ring; the back-ends need not for this check.
    org.fawnpack.kv.ring.Ring down = cluster.ring.withMembersDown(List.of(serving.head().id()));
    org.fawnpack.kv.ring.Ring removed = down.withPendingDone(down.pending().keySet())
        .withRemoving(List.of(serving.head().id())).withRemoved();
    assertTrue(removed.chainFor(reading.endInclusive()).range().covers(serving.range())
        && !removed.chainFor(reading.endInclusive()).range().equals(serving.range()));
    org.fawnpack.kv.ring.Ring before = cluster.ring;
    cluster.ring = removed;
    IOException e = assertThrows(IOException.class, () -> readAll(scan, read));
    assertTrue(e.getMessage().contains("a removal merged its arc " + serving.range()),
        e.getMessage());
    cluster.ring = before;
    assertEquals(model, readAll(scan(KeyRange.wholeRing(), RangeScan.Options.defaults()),
        new HashMap<>()), "a scan started again reads everything");
  }

  @Test
  void asOfTheTailsCuts_whileWritesGoOn_exactlyThatInstant_fromHeadsAndAfterOneCloses()
      throws Exception {
    Map<KeyRange, Long> cuts = new HashMap<>();
    for (Chain chain : cluster.ring.chains()) {
      StatsReport report = StatsReport.decode(pool.to(chain.tail()).call(MessageType.STATS,
          cluster.ring.epoch(), null, DEADLINE));
      report.arcs().stream().filter(a -> a.range().equals(chain.range()))
          .forEach(a -> cuts.put(chain.range(), a.lastSequence()));
    }
    Map<String, String> atCut = Map.copyOf(model);
    try (FawnKvClient kv = FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, SECRET)) {
      for (int i = 0; i < 3_000; i += 5) {
        String key = (i % 3 == 0 ? "user/" : "item/") + i;
        if (i % 2 == 0) {
          kv.delete(bytes(key));
        } else {
          kv.put(bytes(key), bytes("after the cut " + i));
        }
      }
      kv.put(bytes("user/new-after-the-cut"), bytes("not seen"));
    }

    Map<String, String> read = new HashMap<>();
    Chain first = cluster.ring.chains().get(0);
    String head = first.head().id();
    for (Chain chain : cluster.ring.chains()) {
      // Each chain's head first: a member that is not the tail serves a read as of a cut.
      RangeScan scan = new RangeScan(() -> cluster.ring, pool, chain.range(),
          RangeScan.Options.defaults().withPageBytes(2048).asOf(cuts.get(chain.range()),
              host -> host.equals(chain.head().host())));
      if (chain == first) {
        for (int i = 0; i < 100; i++) {
          ScanPage.ScanEntry e = scan.next();
          assertNull(read.put(new String(e.key(), StandardCharsets.UTF_8),
              new String(e.value(), StandardCharsets.UTF_8)));
        }
        cluster.backends.remove(head).close(); // the ring still names it: the scan moves on
      }
      readAll(scan, read);
    }
    assertEquals(atCut, read);
  }

  @Test
  void refusals_notTheTail_acrossArcs_otherEpoch_badPageSize_nodeStaysUp() throws Exception {
    Chain chain = cluster.ring.chains().get(0);
    Chain nextChain = cluster.ring.chainFor(chain.range().endInclusive() + 1);
    Member head = chain.head();
    Member tail = chain.tail();
    long epoch = cluster.ring.epoch();
    Connection toHead = pool.to(head);
    Frame notTail = toHead.call(MessageType.SCAN, epoch, request(chain.range()), DEADLINE);
    assertEquals(MessageType.REFUSED, notTail.type());
    assertTrue(MessageType.messageOf(notTail).contains(tail.toString()),
        MessageType.messageOf(notTail));

    Connection toTail = pool.to(tail);
    KeyRange across = new KeyRange(chain.range().startExclusive(),
        nextChain.range().endInclusive());
    Frame acrossArcs = pool.to(nextChain.tail()).call(MessageType.SCAN, epoch,
        request(across), DEADLINE);
    assertEquals(MessageType.REFUSED, acrossArcs.type());
    assertTrue(MessageType.messageOf(acrossArcs).contains("not inside one arc"),
        MessageType.messageOf(acrossArcs));

    assertEquals(MessageType.STALE_RING, toTail.call(MessageType.SCAN, epoch + 1,
        request(chain.range()), DEADLINE).type());

    byte[] zeroPage = new Frame.Payload().addLong(1).addLong(chain.range().startExclusive())
        .addLong(chain.range().endInclusive()).addLong(0).addLong(0).addBytes(new byte[0])
        .addLong(0).toBytes();
    assertThrows(IOException.class, () -> toTail.call(MessageType.SCAN, epoch, zeroPage,
        DEADLINE), "a malformed SCAN closes the connection");

    Frame fine = pool.to(tail).call(MessageType.SCAN, epoch, request(chain.range()), DEADLINE);
    assertEquals(MessageType.SCAN_PAGE, fine.type());
    assertTrue(ScanPage.decode(fine).done());
  }

  private static byte[] request(KeyRange range) {
    return new ScanRequest(42, range, 0, ScanRequest.MAX_PAGE_BYTES, new byte[0], 0).encode();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
