package org.fawnpack.kv.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.client.FawnKvClient;
import org.fawnpack.kv.client.KvException;
import org.fawnpack.kv.frontend.FrontEnd;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.Datastore;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.EngineKeys;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.Handshake;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Puts, gets and deletes through a front-end and chains of three back-ends on loopback (each
 * back-end on its own 127.0.0.x address, so on its own "host"), checked against a model; then
 * every member's file of every arc is opened on its own and must hold exactly the model's keys
 * of that arc: the writes reached the whole chain.
 */
class ChainReplicationTest {
  private static final RingHash HASH = new RingHash(
      "chain replication test ring key".getBytes(StandardCharsets.UTF_8));
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();

  @TempDir
  Path dir;

  private final List<Backend> backends = new ArrayList<>();
  private final List<Path> backendDirs = new ArrayList<>();
  private FrontEnd frontEnd;
  private Ring ring;

  private void startCluster(int hosts, int vnodes, int replicas) throws IOException {
    ring = Ring.empty(HASH, vnodes, replicas);
    for (int i = 0; i < hosts; i++) {
      Path home = dir.resolve("b" + i);
      Backend backend = Backend.open("b" + i, new InetSocketAddress("127.0.0." + (i + 1), 0),
          home, DatastoreConfig.builder().expectedKeys(1024).build(), SECRET);
      backends.add(backend);
      backendDirs.add(home);
      ring = ring.withMember(backend.member());
    }
    for (Backend backend : backends) {
      backend.useRing(ring);
    }
    frontEnd = FrontEnd.open("f0", new InetSocketAddress("127.0.0.1", 0), SECRET);
    frontEnd.useRing(ring);
  }

  private FawnKvClient client() throws IOException {
    return FawnKvClient.connect(frontEnd.address(), DEADLINE, SECRET);
  }

  @AfterEach
  void stop() throws IOException {
    if (frontEnd != null) {
      frontEnd.close();
    }
    for (Backend backend : backends) {
      backend.close();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void putGetDelete_randomOperations_matchTheModel_andEveryReplicaHoldsItsArcs()
      throws IOException {
    startCluster(5, 3, 3);
    Random random = new Random(83);
    Map<ByteBuffer, byte[]> model = new HashMap<>();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      keys.add(bytes("user:" + i + ":" + "x".repeat(random.nextInt(30))));
    }
    try (FawnKvClient kv = client()) {
      for (int op = 0; op < 2_000; op++) {
        byte[] key = keys.get(random.nextInt(keys.size()));
        switch (random.nextInt(5)) {
          case 0 -> assertEquals(model.remove(ByteBuffer.wrap(key)) != null, kv.delete(key));
          case 1, 2 -> {
            byte[] value = new byte[random.nextInt(200)];
            random.nextBytes(value);
            kv.put(key, value);
            model.put(ByteBuffer.wrap(key), value);
          }
          default -> assertArrayEquals(model.get(ByteBuffer.wrap(key)), kv.get(key),
              () -> "get " + new String(key, StandardCharsets.UTF_8));
        }
      }
    }
    stop();
    assertEveryMemberHoldsItsArcs(model);
  }

  @Test
  void put_manyClientsAtOnceOnFewKeys_replicasAgreeWithTheTail() throws Exception {
    startCluster(3, 2, 3);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> done = new ArrayList<>();
    try (FawnKvClient kv = client()) {
      for (int t = 0; t < 8; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < 300; i++) {
            kv.put(bytes("hot" + (i % 5)), bytes("t" + thread + " i" + i));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      Map<ByteBuffer, byte[]> tails = new HashMap<>();
      for (int k = 0; k < 5; k++) {
        tails.put(ByteBuffer.wrap(bytes("hot" + k)), kv.get(bytes("hot" + k)));
      }
      stop();
      // Whatever order the puts won in, every member stored them in the head's order.
      assertEveryMemberHoldsItsArcs(tails);
    } finally {
      pool.shutdownNow();
    }
  }

  private void assertEveryMemberHoldsItsArcs(Map<ByteBuffer, byte[]> model) throws IOException {
    int checkedFiles = 0;
    for (Chain chain : ring.chains()) {
      Map<ByteBuffer, byte[]> expected = new HashMap<>();
      model.forEach((key, value) -> {
        if (chain.range().contains(HASH.position(key.array()))) {
          expected.put(key, value);
        }
      });
      for (Member member : chain.members()) {
        Path file = backendDirs.get(Integer.parseInt(member.id().substring(1)))
            .resolve(String.format("arc-%016x.fds", chain.range().endInclusive()));
        Map<ByteBuffer, byte[]> held = new HashMap<>();
        try (Datastore ds = Datastore.open(file, DatastoreConfig.builder().build())) {
          ds.scan((k, v) -> held.put(ByteBuffer.wrap(EngineKeys.userKey(k)), v));
        }
        assertEquals(names(expected), names(held), member + " in " + chain.range());
        expected.forEach((k, v) -> assertArrayEquals(v, held.get(k), member + " value"));
        checkedFiles++;
      }
    }
    assertEquals(ring.chains().size() * ring.replicas(), checkedFiles);
  }

  private static java.util.SortedSet<String> names(Map<ByteBuffer, byte[]> entries) {
    java.util.SortedSet<String> names = new java.util.TreeSet<>();
    entries.keySet().forEach(k -> names.add(new String(k.array(), StandardCharsets.UTF_8)));
    return names;
  }

  @Test
  void putAllThenGetAll_pipelined_matchTheModel_inOrder_absentKeysNull() throws IOException {
    startCluster(5, 3, 3);
    Random random = new Random(89);
    Map<ByteBuffer, byte[]> model = new HashMap<>();
    List<byte[]> keys = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 300; i++) { // each key once: pipelined writes have no order
      byte[] key = bytes("batch:" + i);
      byte[] value = bytes("v" + i + "-" + "y".repeat(random.nextInt(50)));
      keys.add(key);
      values.add(value);
      model.put(ByteBuffer.wrap(key), value);
    }
    try (FawnKvClient kv = client()) {
      kv.putAll(keys, values);
      List<byte[]> asked = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        asked.add(bytes("batch:" + i)); // 300..399 were never written
      }
      List<byte[]> found = kv.getAll(asked);
      assertEquals(asked.size(), found.size());
      for (int i = 0; i < asked.size(); i++) {
        assertArrayEquals(model.get(ByteBuffer.wrap(asked.get(i))), found.get(i),
            "batch:" + i);
      }
      assertThrows(IllegalArgumentException.class, () -> kv.putAll(List.of(bytes("a")),
          List.of(new byte[ProtocolLimits.MAX_VALUE_BYTES + 1])), "checked before anything is sent");
    }
  }

  @Test
  void jmxMetrics_countEachOperationWhereTheChainDoesIt_andMatchTheModel() throws Exception {
    startCluster(5, 3, 3);
    javax.management.MBeanServer jmx = java.lang.management.ManagementFactory
        .getPlatformMBeanServer();
    Map<ByteBuffer, byte[]> model = new HashMap<>();
    try (FawnKvClient kv = client()) {
      for (int i = 0; i < 120; i++) {
        kv.put(bytes("m" + i), bytes("v" + i));
        model.put(ByteBuffer.wrap(bytes("m" + i)), bytes("v" + i));
      }
      for (int i = 0; i < 80; i++) {
        kv.get(bytes("m" + (i * 7 % 150))); // some never written
      }
      for (int i = 0; i < 10; i++) {
        kv.delete(bytes("m" + i));
        model.remove(ByteBuffer.wrap(bytes("m" + i)));
      }
    }
    long writes = 0;
    long gets = 0;
    long chainWrites = 0;
    long keysAtHeads = 0;
    long arcsHeaded = 0;
    long journaled = 0;
    long journalForces = 0;
    for (Backend b : backends) {
      javax.management.ObjectName name = org.fawnpack.kv.metrics.Jmx.nameOf("Backend-"
          + b.member().id());
      writes += (Long) jmx.getAttribute(name, "Writes");
      gets += (Long) jmx.getAttribute(name, "Gets");
      chainWrites += (Long) jmx.getAttribute(name, "ChainWrites");
      keysAtHeads += (Long) jmx.getAttribute(name, "KeysAsHead");
      arcsHeaded += (Integer) jmx.getAttribute(name, "ArcsAsHead");
      journaled += (Long) jmx.getAttribute(name, "JournalWrites");
      journalForces += (Long) jmx.getAttribute(name, "JournalForces");
      assertEquals(ring.epoch(), jmx.getAttribute(name, "Epoch"));
    }
    assertEquals(130, writes, "each put and delete once, at its head");
    assertEquals(80, gets, "each get once, at its tail");
    assertEquals(130 * 2, chainWrites, "each write on the two members after its head");
    assertEquals(model.size(), keysAtHeads, "every live key once, at its head");
    assertEquals(ring.chains().size(), arcsHeaded, "every arc has one head");
    assertEquals(130 * 3, journaled, "each write in the journal of each of its members");
    assertTrue(journalForces > 0 && journalForces <= journaled,
        "journal forces: " + journalForces + " for " + journaled + " writes");
    javax.management.ObjectName front = org.fawnpack.kv.metrics.Jmx.nameOf("FrontEnd-f0");
    assertEquals(80L, jmx.getAttribute(front, "Gets"));
    assertEquals(120L, jmx.getAttribute(front, "Puts"));
    assertEquals(10L, jmx.getAttribute(front, "Deletes"));
    assertEquals(0L, jmx.getAttribute(front, "Refused"));
    assertEquals(0L, jmx.getAttribute(front, "Errors"));
    frontEnd.close();
    frontEnd = null;
    assertFalse(jmx.isRegistered(front), "closing a node unregisters its bean");
  }

  @Test
  void put_fewerHostsThanReplicas_refusedNamingTheChain_andNothingStored() throws IOException {
    startCluster(2, 2, 3);
    try (FawnKvClient kv = client()) {
      KvException e = assertThrows(KvException.class, () -> kv.put(bytes("k"), bytes("v")));
      assertTrue(e.getMessage().contains("has 2 of 3 members in ring epoch ")
          && e.getMessage().endsWith("writes refused"), e.getMessage());
      assertTrue(e.refused(), "a definite failure: applied nowhere");
      assertNull(kv.get(bytes("k")));
      KvException batch = assertThrows(KvException.class, () -> kv.putAll(
          List.of(bytes("k1"), bytes("k2"), bytes("k3")), List.of(bytes("1"), bytes("2"),
          bytes("3"))));
      assertTrue(batch.refused() && batch.getMessage().startsWith("3 of 3 PUTs failed"),
          batch.getMessage());
      assertEquals(java.util.Arrays.asList(null, null, null), kv.getAll(List.of(bytes("k1"),
          bytes("k2"), bytes("k3"))));
    }
  }

  @Test
  void requests_badKeysAndValues_clearErrors_clusterKeepsServing() throws IOException {
    startCluster(3, 1, 3);
    try (FawnKvClient kv = client()) {
      assertThrows(IllegalArgumentException.class, () -> kv.put(new byte[0], bytes("v")));
      assertThrows(IllegalArgumentException.class,
          () -> kv.get(new byte[ProtocolLimits.MAX_KEY_BYTES + 1]));
      assertThrows(IllegalArgumentException.class,
          () -> kv.put(bytes("k"), new byte[ProtocolLimits.MAX_VALUE_BYTES + 1]));
      kv.put(bytes("k"), new byte[ProtocolLimits.MAX_VALUE_BYTES]);
      assertEquals(ProtocolLimits.MAX_VALUE_BYTES, kv.get(bytes("k")).length);
      assertTrue(kv.delete(bytes("k")));
      assertFalse(kv.delete(bytes("k")));
    }
  }

  @Test
  void frames_malformedOrMisrouted_connectionClosedOrErrorNamed_nodesKeepServing()
      throws IOException {
    startCluster(3, 1, 3);
    InetSocketAddress front = frontEnd.address();
    try (Socket raw = new Socket(front.getAddress(), front.getPort())) {
      raw.setSoTimeout(10_000);
      DataInputStream in = new DataInputStream(raw.getInputStream());
      DataOutputStream out = new DataOutputStream(raw.getOutputStream());
      Handshake.connect(in, out, SECRET); // an authenticated peer...
      out.writeInt(Integer.MAX_VALUE); // ...sending a length no node accepts
      out.write(new byte[18]);
      out.flush();
      assertEquals(-1, in.read(), "the front-end closes that connection");
    }
    byte[] key = bytes("routed");
    Chain chain = ring.chainForKey(key);
    Member notTail = chain.head();
    try (Connection toHead = Connection.open(new InetSocketAddress(notTail.host(),
        notTail.port()), DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
      Frame answer = toHead.call(MessageType.GET, ring.epoch(),
          new Frame.Payload().addBytes(key).toBytes(), DEADLINE);
      assertEquals(MessageType.REFUSED, answer.type());
      String message = MessageType.messageOf(answer);
      assertTrue(message.contains("is not the tail") && message.contains(chain.tail().id()),
          message);
      Frame unknown = toHead.call((byte) 99, ring.epoch(), new byte[0], DEADLINE);
      assertEquals(MessageType.REFUSED, unknown.type(), "an unknown type ends only that request");
    }
    try (Connection toFront = Connection.open(front, DEADLINE, ProtocolLimits.MAX_FRAME_BYTES,
        SECRET)) {
      Frame answer = toFront.call(MessageType.GET, 0, new Frame.Payload().addBytes(new byte[0])
          .toBytes(), DEADLINE);
      assertEquals(MessageType.REFUSED, answer.type(), "an empty key is answered, not routed");
    }
    try (FawnKvClient kv = client()) {
      kv.put(key, bytes("still up"));
      assertArrayEquals(bytes("still up"), kv.get(key));
    }
  }
}
