package org.fawnpack.kv.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.frontend.FrontEndStats;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.MessageType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that sends gets straight to the tails ({@code FawnKvClient.connectReadingTails}),
 * in one process with the ring handed over in code, so the test decides which ring the client
 * holds. Every answer is checked against a model of the store (what was put and deleted), and
 * which way each get went against the front-end's own count of the gets it served.
 */
class TailGetsTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final int KEYS = 120;

  @TempDir
  Path dir;

  private InProcessCluster cluster;
  private final Map<String, String> model = new HashMap<>();

  private static final long LEASE_MS = 1_000;
  /** The epoch each back-end's lease renewal finds published (the ring handed over, unless a test says otherwise). */
  private final Map<String, java.util.concurrent.atomic.AtomicLong> published = new HashMap<>();

  @BeforeEach
  void startAndLoad() throws Exception {
    cluster = new InProcessCluster(dir, "tail gets test ring key", 4, SECRET);
    for (Map.Entry<String, Backend> b : cluster.backends.entrySet()) {
      java.util.concurrent.atomic.AtomicLong epoch =
          new java.util.concurrent.atomic.AtomicLong(-1);
      published.put(b.getKey(), epoch);
      b.getValue().leaseTailReads(LEASE_MS,
          () -> epoch.get() >= 0 ? epoch.get() : cluster.ring.epoch());
    }
    awaitLeases();
    try (FawnKvClient kv = throughFrontEnd()) {
      for (int k = 0; k < KEYS; k++) {
        put(kv, "key-" + k, "first-" + k);
      }
      for (int k = 0; k < KEYS; k += 7) {
        kv.delete(bytes("key-" + k));
        model.remove("key-" + k);
      }
    }
  }

  @AfterEach
  void stop() throws IOException {
    cluster.close();
  }

  @Test
  void clientOnTheCurrentRing_everyGetAnsweredByItsTail_frontEndServesNone() throws Exception {
    long frontEndGetsBefore = frontEndGets();
    try (FawnKvClient kv = readingTails(() -> cluster.ring)) {
      readEveryKeyAgainstTheModel(kv);
      assertEquals(KEYS + 3, kv.tailGetCounts()[0], "gets the tails answered");
      assertEquals(0, kv.tailGetCounts()[1], "gets passed on to the front-end");
    }
    assertEquals(frontEndGetsBefore, frontEndGets(), "gets the front-end served");
  }

  @Test
  void clientOnAnOlderRing_tailsAnswerStaleRing_getsGoThroughTheFrontEnd_noneStale()
      throws Exception {
    Ring old = cluster.ring;
    String tailOfKey1 = old.chainForKey(bytes("key-1")).tail().id();
    cluster.useRing(old.withMembersDown(Set.of(tailOfKey1)));
    int written = 0;
    try (FawnKvClient writer = throughFrontEnd()) { // new values under the new epoch only
      for (int k = 1; k < KEYS; k++) {
        if (cluster.ring.chainForKey(bytes("key-" + k)).takesWrites()) { // not short
          put(writer, "key-" + k, "second-" + k);
          written++;
        }
      }
    }
    assertTrue(written > 5, "keys written under the new epoch: " + written);
    long frontEndGetsBefore = frontEndGets();
    try (FawnKvClient kv = readingTails(() -> old)) {
      readEveryKeyAgainstTheModel(kv);
      assertEquals(0, kv.tailGetCounts()[0], "gets a tail on another epoch answered");
      assertEquals(KEYS + 3, kv.tailGetCounts()[1], "gets passed on to the front-end");
    }
    assertEquals(frontEndGetsBefore + KEYS + 3, frontEndGets(), "gets the front-end served");
  }

  @Test
  void ringSourceNotUpToDate_everyGetThroughTheFrontEnd() throws Exception {
    RingSource cutOff = new RingSource() {
      @Override
      public Ring current() {
        return cluster.ring;
      }

      @Override
      public boolean upToDate() {
        return false; // its ZooKeeper connection is down: a newer epoch may exist unseen
      }
    };
    try (FawnKvClient kv = readingTails(cutOff)) {
      readEveryKeyAgainstTheModel(kv);
      assertEquals(0, kv.tailGetCounts()[0]);
      assertEquals(KEYS + 3, kv.tailGetCounts()[1]);
    }
  }

  @Test
  void noRingYet_getsThroughTheFrontEnd() throws Exception {
    try (FawnKvClient kv = readingTails(() -> null)) {
      readEveryKeyAgainstTheModel(kv);
      assertEquals(KEYS + 3, kv.tailGetCounts()[1]);
    }
  }

  @Test
  void tailFindsANewerEpochPublished_itsLeaseRunsOut_directGetsRefused() throws Exception {
    Ring ring = cluster.ring;
    String lagging = ring.chainForKey(bytes("key-1")).tail().id();
    published.get(lagging).set(ring.epoch() + 1); // one it has not taken (its watch is late)
    Thread.sleep(LEASE_MS); // longer than what is left of the last lease (0.8 of its length)
    assertFalse(cluster.backends.get(lagging).holdsTailReadLease());
    long keysThere = 0;
    try (FawnKvClient kv = readingTails(() -> ring)) {
      readEveryKeyAgainstTheModel(kv);
      for (int k = 0; k < KEYS + 3; k++) {
        keysThere += ring.chainForKey(bytes("key-" + k)).tail().id().equals(lagging) ? 1 : 0;
      }
      assertTrue(keysThere > 0);
      assertEquals(keysThere, kv.tailGetCounts()[1], "gets of " + lagging + "'s arcs passed on");
      assertEquals(KEYS + 3 - keysThere, kv.tailGetCounts()[0], "gets the other tails answered");
    }
  }

  @Test
  void leaseOff_directGetsRefused_everyGetThroughTheFrontEnd() throws Exception {
    try (InProcessCluster plain = new InProcessCluster(dir.resolve("plain"), "plain cluster ring key", 3,
        SECRET); FawnKvClient writer = FawnKvClient.connect(plain.frontEnd.address(), DEADLINE,
            SECRET)) {
      writer.put(bytes("k"), bytes("v"));
      try (FawnKvClient kv = FawnKvClient.connectReadingTails(List.of(plain.frontEnd.address()),
          DEADLINE, FawnKvClient.DEFAULT_TRY_TIMEOUT, SECRET, () -> plain.ring)) {
        assertArrayEquals(bytes("v"), kv.get(bytes("k")));
        assertArrayEquals(new long[] {0, 1}, kv.tailGetCounts());
      }
    }
  }

  @Test
  void tailMovesToAnotherMember_itHoldsTheArcForTheLease_beforeAnyGetOrAcknowledgement()
      throws Exception {
    Ring old = cluster.ring;
    String oldTail = old.chainForKey(bytes("key-2")).tail().id();
    Ring next = old.withMembersDown(Set.of(oldTail));
    // The down member's arcs get other tails, which hold them for the lease's length.
    String movedKey = null;
    for (int k = 0; k < KEYS && movedKey == null; k++) {
      if (old.chainForKey(bytes("key-" + k)).tail().id().equals(oldTail)
          && model.containsKey("key-" + k)) {
        movedKey = "key-" + k;
      }
    }
    assertTrue(movedKey != null);
    long changed = System.nanoTime();
    cluster.useRing(next);
    try (FawnKvClient kv = throughFrontEnd()) {
      assertArrayEquals(bytes(model.get(movedKey)), kv.get(bytes(movedKey)));
    }
    long tookMs = (System.nanoTime() - changed) / 1_000_000;
    assertTrue(tookMs >= LEASE_MS, "a get of an arc whose tail moved was answered " + tookMs
        + " ms after the change, within the old tail's lease (" + LEASE_MS + " ms)");
  }

  private void awaitLeases() throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    for (Backend b : cluster.backends.values()) {
      while (!b.holdsTailReadLease()) {
        assertTrue(System.nanoTime() < deadline, "no tail read lease within " + DEADLINE);
        Thread.sleep(10);
      }
    }
  }

  /** Every key once (absent ones included) and three never written, against the model. */
  private void readEveryKeyAgainstTheModel(FawnKvClient kv) throws IOException {
    for (int k = 0; k < KEYS + 3; k++) {
      String key = "key-" + k;
      byte[] value = kv.get(bytes(key));
      String expected = model.get(key);
      if (expected == null) {
        assertNull(value, key + " is absent");
      } else {
        assertArrayEquals(bytes(expected), value, key);
      }
    }
  }

  private void put(FawnKvClient kv, String key, String value) throws IOException {
    kv.put(bytes(key), bytes(value));
    model.put(key, value);
  }

  private long frontEndGets() throws IOException {
    try (Connection c = Connection.open(cluster.frontEnd.address(), DEADLINE,
        1 << 20, SECRET)) {
      return FrontEndStats.decode(c.call(MessageType.STATS, 0, new byte[0], DEADLINE)).gets();
    }
  }

  private FawnKvClient throughFrontEnd() throws IOException {
    return FawnKvClient.connect(cluster.frontEnd.address(), DEADLINE, SECRET);
  }

  private FawnKvClient readingTails(RingSource rings) throws IOException {
    return FawnKvClient.connectReadingTails(List.of(cluster.frontEnd.address()), DEADLINE,
        FawnKvClient.DEFAULT_TRY_TIMEOUT, SECRET, rings);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
