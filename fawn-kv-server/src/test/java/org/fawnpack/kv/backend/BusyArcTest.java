package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.ring.RingHash;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.WriteId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes run on the event loop, and a write whose arc is busy — its lock held as a split, a
 * snapshot or a bulk apply holds it, or its store's writer lock held as a compaction's swap
 * holds it — moves to a thread that may wait instead of stopping the loop: meanwhile writes and
 * gets of another arc, on connections spread over every loop, are answered; once the holder
 * lets go the waiting write is applied and answered, and a get reads it back.
 */
class BusyArcTest {
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final RingHash HASH =
      new RingHash("busy arc test ring key".getBytes(StandardCharsets.UTF_8));
  /** More than the event loops of a small machine: some share the busy write's loop. */
  private static final int OTHER_CONNECTIONS = 2 * Runtime.getRuntime().availableProcessors() + 2;

  @TempDir
  Path dir;

  private Backend backend;
  private Ring ring;
  private final List<Connection> connections = new ArrayList<>();
  private long writeIds;

  @BeforeEach
  void start() throws IOException {
    backend = Backend.open("b0", new InetSocketAddress("127.0.0.1", 0), dir.resolve("b0"),
        DatastoreConfig.builder().expectedKeys(256).build(), SECRET);
    backend.fenceLearned(1);
    ring = Ring.at(1, HASH, 4, 1, List.of(backend.member())); // head and tail of every arc
    backend.useRing(ring);
  }

  @AfterEach
  void stop() throws IOException {
    for (Connection c : connections) {
      c.close();
    }
    backend.close();
  }

  @Test
  void arcLockHeld_writeWaitsOffTheLoop_otherArcsServed_thenApplied() throws Exception {
    busyArc_writeWaits_otherArcsServed(true);
  }

  @Test
  void storeWriterLockHeld_writeWaitsOffTheLoop_otherArcsServed_thenApplied() throws Exception {
    busyArc_writeWaits_otherArcsServed(false);
  }

  private void busyArc_writeWaits_otherArcsServed(boolean holdArcLock) throws Exception {
    byte[] busyKey = bytes("busy");
    long busyEnd = ring.chainForKey(busyKey).range().endInclusive();
    List<byte[]> otherKeys = new ArrayList<>();
    for (int i = 0; otherKeys.size() < OTHER_CONNECTIONS; i++) {
      byte[] key = bytes("other-" + i);
      if (ring.chainForKey(key).range().endInclusive() != busyEnd) {
        otherKeys.add(key);
      }
    }
    ArcStore busy = backend.arc(busyEnd);
    CompletableFuture<Frame> waiting;
    CompletableFuture<Void> holding = new CompletableFuture<>();
    CompletableFuture<Void> release = new CompletableFuture<>();
    Thread holder = new Thread(() -> { // the split or compaction: holds, then lets go
      if (holdArcLock) {
        busy.lock();
      } else {
        assertTrue(busy.store().tryHoldWriters());
      }
      holding.complete(null);
      try {
        release.get(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        Thread.currentThread().interrupt();
      } finally {
        if (holdArcLock) {
          busy.unlock();
        } else {
          busy.store().releaseWriters();
        }
      }
    });
    holder.start();
    try {
      holding.get(10, TimeUnit.SECONDS);
      waiting = connect().send(MessageType.PUT, ring.epoch(), put(busyKey, bytes("late")));
      for (int i = 0; i < OTHER_CONNECTIONS; i++) {
        Connection c = connect();
        byte[] key = otherKeys.get(i);
        Frame written = c.call(MessageType.PUT, ring.epoch(), put(key, bytes("v" + i)),
            DEADLINE);
        assertEquals(MessageType.OK, written.type(), MessageType.messageOf(written));
        assertArrayEquals(bytes("v" + i), get(c, key), "read back while the other arc is busy");
      }
      assertFalse(waiting.isDone(), "the busy arc's write was answered while it was held: "
          + (waiting.isDone() ? MessageType.messageOf(waiting.join()) : ""));
    } finally {
      release.complete(null);
      holder.join(10_000);
    }
    Frame answer = waiting.get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    assertEquals(MessageType.OK, answer.type(), MessageType.messageOf(answer));
    assertArrayEquals(bytes("late"), get(connect(), busyKey));
  }

  private Connection connect() throws IOException {
    Connection c = Connection.open(new InetSocketAddress(backend.member().host(),
        backend.member().port()), DEADLINE, ProtocolLimits.MAX_FRAME_BYTES, SECRET);
    connections.add(c);
    return c;
  }

  /** A head's PUT as a front-end sends it: admitted under slice epoch 1, the fence. */
  private byte[] put(byte[] key, byte[] value) {
    return new WriteId(7, ++writeIds).addTo(new Frame.Payload().addBytes(key).addBytes(value),
        false).addLong(1).toBytes();
  }

  private byte[] get(Connection c, byte[] key) throws IOException {
    Frame answer = c.call(MessageType.GET, ring.epoch(), new Frame.Payload().addBytes(key)
        .toBytes(), DEADLINE);
    assertNotEquals(MessageType.REFUSED, answer.type(), MessageType.messageOf(answer));
    assertEquals(MessageType.VALUE, answer.type(), MessageType.messageOf(answer));
    return answer.fields().nextBytes(Integer.MAX_VALUE, "the value");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
