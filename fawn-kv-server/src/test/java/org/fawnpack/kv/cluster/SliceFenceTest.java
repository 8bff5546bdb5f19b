package org.fawnpack.kv.cluster;

import org.fawnpack.kv.wire.ProtocolLimits;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.WriteId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A chain's head refuses writes admitted under slice epochs older than its fence (FENCED,
 * applied nowhere: the tail never has them), and answers FENCE only once every write it took
 * before is committed at the tail, so a front-end that waits for FENCE's answers can no longer
 * have a former owner's write land behind its cache. Three back-ends in this JVM, each reached
 * through a loopback proxy so a test can cut a chain's link to its tail.
 */
class SliceFenceTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();

  @TempDir
  Path dir;

  private final List<Backend> backends = new ArrayList<>();
  private final List<LoopbackProxy> proxies = new ArrayList<>();
  /** Where each back-end listens itself, past its proxy. */
  private final List<InetSocketAddress> direct = new ArrayList<>();
  private Ring ring;
  private Connection toHead;
  private Chain chain;
  private byte[] key;

  @BeforeEach
  void start() throws IOException {
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String host = "127.0.0." + (i + 1);
      Backend b = Backend.open("b" + i, new InetSocketAddress(host, 0), dir.resolve("b" + i),
          DatastoreConfig.builder().expectedKeys(64).build(), SECRET);
      direct.add(new InetSocketAddress(host, b.member().port()));
      LoopbackProxy proxy = new LoopbackProxy(host, direct.get(i));
      b.advertisePort(proxy.port());
      backends.add(b);
      proxies.add(proxy);
      members.add(b.member());
    }
    ring = Ring.at(3, new RingHash("slice fence test ring key".getBytes(StandardCharsets.UTF_8)), 1, 3,
        members);
    for (Backend b : backends) {
      b.useRing(ring);
    }
    key = "fenced-key".getBytes(StandardCharsets.UTF_8);
    chain = ring.chainForKey(key);
    toHead = Connection.open(address(chain.head()), WAIT, ProtocolLimits.MAX_FRAME_BYTES, SECRET);
  }

  @AfterEach
  void stop() throws IOException {
    if (toHead != null) {
      toHead.close();
    }
    for (LoopbackProxy p : proxies) {
      p.close();
    }
    for (Backend b : backends) {
      b.close();
    }
  }

  private static InetSocketAddress address(Member m) {
    return new InetSocketAddress(m.host(), m.port());
  }

  /** A PUT as a front-end passes it to the head: admitted under {@code admittedAt}. */
  private CompletableFuture<Frame> put(String value, long request, long admittedAt) {
    return toHead.send(MessageType.PUT, ring.epoch(), new WriteId(77, request).addTo(
        new Frame.Payload().addBytes(key).addBytes(value.getBytes(StandardCharsets.UTF_8)),
        false).addLong(admittedAt).toBytes());
  }

  private CompletableFuture<Frame> fence(long sliceEpoch) {
    return toHead.send(MessageType.FENCE, ring.epoch(),
        new Frame.Payload().addLong(sliceEpoch).toBytes());
  }

  /** What the tail serves for the key (asked past its proxy). */
  private Frame tailGet() throws IOException {
    try (Connection c = Connection.open(direct.get(backends.indexOf(backendOf(chain.tail()))),
        WAIT, ProtocolLimits.MAX_FRAME_BYTES, SECRET)) {
      return c.call(MessageType.GET, ring.epoch(), new Frame.Payload().addBytes(key).toBytes(),
          WAIT);
    }
  }

  private static Frame await(CompletableFuture<Frame> f) throws Exception {
    return f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void write_admittedBelowTheFence_refusedFenced_appliedNowhere_newerAdmissionApplied()
      throws Exception {
    assertEquals(MessageType.OK, await(fence(5)).type());
    Frame refused = await(put("old", 1, 4));
    assertEquals(MessageType.FENCED, refused.type(), MessageType.messageOf(refused));
    assertEquals(5, MessageType.fenceOf(refused));
    assertEquals(MessageType.NOT_FOUND, tailGet().type(), "the fenced write went nowhere");
    assertEquals(MessageType.OK, await(put("new", 2, 5)).type());
    assertEquals(MessageType.VALUE, tailGet().type());
    assertEquals(5, backendOf(chain.head()).sliceFence());
    assertEquals(0, backendOf(chain.tail()).sliceFence(), "a fence is raised where it is sent");
  }

  @Test
  void fence_answeredOnlyAfterTheWritesTakenBeforeAreCommittedAtTheTail() throws Exception {
    LoopbackProxy toTail = proxies.get(backends.indexOf(backendOf(chain.tail())));
    toTail.cut(); // the write stops short of the tail: head and middle hold it in sent lists
    CompletableFuture<Frame> write = put("before", 1, 1);
    Thread.sleep(200); // taken by the head: a fence from now on must wait for it
    CompletableFuture<Frame> fence = fence(2);
    Thread.sleep(300);
    assertFalse(fence.isDone(), "fenced while a write taken before was short of the tail");
    assertEquals(MessageType.NOT_FOUND, tailGet().type());
    toTail.heal(); // the sent lists resend it
    assertEquals(MessageType.OK, await(fence).type());
    Frame atTheTail = tailGet(); // the fence answered: the write was committed before
    assertEquals(MessageType.VALUE, atTheTail.type());
    assertEquals("before", new String(atTheTail.fields().nextBytes(100, "the value"),
        StandardCharsets.UTF_8));
    // Its own answer may have said ERROR (the link broke on its way): its outcome was unknown
    // to the front-end, which is why the fence, not the answer, is what a new owner waits for.
    assertTrue(List.of(MessageType.OK, MessageType.ERROR).contains(await(write).type()));
  }

  @Test
  void fenceUnknown_everyWriteRefused_untilLearned_thenOlderAdmissionsOnly() throws Exception {
    Backend head = backendOf(chain.head());
    head.fenceUnknown(); // a new ZooKeeper session: fences may have passed it by
    Frame refused = await(put("any", 1, 100));
    assertEquals(MessageType.FENCED, refused.type(), MessageType.messageOf(refused));
    head.fenceLearned(3);
    assertEquals(MessageType.FENCED, await(put("older", 2, 2)).type());
    assertEquals(MessageType.OK, await(put("current", 3, 3)).type());
  }

  @Test
  void fence_routedByAnotherRingEpoch_staleRing_fenceNotRaised() throws Exception {
    Frame answer = await(toHead.send(MessageType.FENCE, ring.epoch() + 1,
        new Frame.Payload().addLong(9).toBytes()));
    assertEquals(MessageType.STALE_RING, answer.type());
    assertEquals(0, backendOf(chain.head()).sliceFence());
  }

  private Backend backendOf(Member m) {
    return backends.stream().filter(b -> b.member().equals(m)).findFirst().orElseThrow();
  }
}
