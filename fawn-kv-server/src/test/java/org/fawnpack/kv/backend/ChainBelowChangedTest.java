package org.fawnpack.kv.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.kv.store.KeyRange;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.wire.ChainWrite;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.WriteId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A head whose successor stays while the chain below it changes (the tail frozen, then marked
 * down): the answers to its forwards waited on the member that went and never come, so it
 * sends its unconfirmed writes again to the same successor, whose answers now confirm them —
 * and nothing is sent again when the ring changes and the chain does not. The successor is a
 * real server on loopback that records what it is sent and answers as the chain would.
 */
class ChainBelowChangedTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final Member HEAD = new Member("b0", "127.0.0.1", 1);
  private static final Member FROZEN_TAIL = new Member("b2", "127.0.0.3", 3);

  @TempDir
  Path dir;

  private final ConcurrentLinkedQueue<Long> received = new ConcurrentLinkedQueue<>();
  private volatile boolean answering;
  private FrameServer successor;
  private ConnectionPool pool;
  private ChainForwarder forwarder;
  private ArcStore arc;
  private Member middle;
  private KeyRange range;

  @BeforeEach
  void start() throws Exception {
    successor = new FrameServer("successor", new InetSocketAddress("127.0.0.1", 0),
        ProtocolLimits.MAX_FRAME_BYTES, SECRET, (request, replies) -> {
          received.add(ChainWrite.decode(request).sequence());
          if (answering) { // first the answers wait on the frozen tail: none comes
            replies.send(MessageType.reply(request, MessageType.OK, null));
          }
        }).start();
    middle = new Member("b1", "127.0.0.1", successor.address().getPort());
    range = new KeyRange(0, 1L << 40);
    pool = new ConnectionPool(Duration.ofSeconds(5), ProtocolLimits.MAX_FRAME_BYTES, SECRET);
    forwarder = new ChainForwarder("backend b0", pool, new Backoff(60_000, 60_000),
        new Backoff(60_000, 60_000)); // no timer resend within the test: only the rule's
    forwarder.use(HEAD);
    arc = ArcStore.open(dir, chain(HEAD, middle, FROZEN_TAIL), 1,
        DatastoreConfig.builder().expectedKeys(64).build());
  }

  @AfterEach
  void stop() throws Exception {
    forwarder.close();
    pool.close();
    successor.close();
    arc.close();
  }

  @Test
  void tailBelowTheSuccessorGone_unconfirmedWritesSentAgain_andConfirmed() throws Exception {
    for (int i = 0; i < 3; i++) {
      byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
      long sequence = arc.store().put(key, key);
      forwarder.forward(arc, new SentList.SentWrite(MessageType.CHAIN_PUT, key, key, sequence,
          WriteId.NONE));
    }
    awaitReceived(3);
    assertEquals(3, arc.sent().size(), "no answers while the tail is frozen");
    CompletableFuture<Void> committed = arc.sent().committedThrough(arc.store().lastSequence());

    forwarder.chainChanged(arc, arc.chain(), chain(HEAD, middle, FROZEN_TAIL), 2);
    Thread.sleep(200); // time for a wrong resend to arrive (none is expected)
    assertEquals(3, received.size(), "the same chain: nothing sent again");

    answering = true;
    forwarder.chainChanged(arc, arc.chain(), chain(HEAD, middle), 3); // the tail marked down
    awaitReceived(6);
    committed.get(10, TimeUnit.SECONDS);
    assertEquals(0, arc.sent().size(), "every write confirmed by the chain as it stands");
    assertEquals(List.of(1L, 2L, 3L, 1L, 2L, 3L), List.copyOf(received), "sent again in order");
  }

  private Chain chain(Member... members) {
    return new Chain(range, List.of(members), 3);
  }

  private void awaitReceived(int count) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (received.size() < count && System.nanoTime() < end) {
      Thread.sleep(10); // a bounded wait for frames from another thread
    }
    assertTrue(received.size() >= count, "received " + received + ", expected " + count);
  }
}
