package org.fawnpack.kv.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.junit.jupiter.api.Test;

/**
 * The event-loop transport keeps the contracts of the thread-per-connection one it replaced:
 * one connection's requests reach the handler in the order sent, whether handled on the loop or
 * queued; a handler that blocks holds up only its own connection; reading pauses above the
 * queued-bytes limit and resumes below it; malformed frames close only their connection; a
 * handler's exception is an ERROR reply; requests sent while connecting leave after the
 * handshake, and fail as not sent when the connect fails or the peer never proves the secret.
 */
class EventLoopTransportTest {
  private static final ClusterSecret SECRET = ClusterSecret.generate();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);
  private static final byte SLOW = MessageType.PUT; // queued
  private static final byte FAST = MessageType.GET; // on the loop

  private static Frame ok(Frame request) {
    return MessageType.reply(request, MessageType.OK, request.payload());
  }

  @Test
  void requests_mixedLoopAndQueued_handledInTheOrderSent() throws Exception {
    List<Long> handled = java.util.Collections.synchronizedList(new ArrayList<>());
    try (FrameServer server = new FrameServer("order", ANY, 1 << 20, SECRET, (request, r) -> {
          handled.add(request.requestId());
          if (request.type() == SLOW) {
            sleepQuietly(2); // a blocking handler: later gets must still wait their turn
          }
          r.send(ok(request));
        }).handleOnEventLoop(FAST).start();
        Connection c = Connection.open(server.address(), WAIT, 1 << 20, SECRET)) {
      java.util.Random random = new java.util.Random(42);
      List<CompletableFuture<Frame>> replies = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        replies.add(c.send(random.nextInt(3) == 0 ? SLOW : FAST, 0, new byte[] {(byte) i}));
      }
      for (int i = 0; i < replies.size(); i++) {
        assertArrayEquals(new byte[] {(byte) i}, replies.get(i).get(10, TimeUnit.SECONDS)
            .payload(), "reply " + i + " carries its own request's payload");
      }
      List<Long> sent = new ArrayList<>();
      for (long id = 1; id <= 300; id++) {
        sent.add(id);
      }
      assertEquals(sent, handled, "ids are given in the order of send(): handled in it too");
    }
  }

  @Test
  void blockedHandler_holdsUpOnlyItsOwnConnection() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (FrameServer server = new FrameServer("blocked", ANY, 1 << 20, SECRET, (request, r) -> {
          if (request.type() == SLOW) {
            awaitQuietly(release);
          }
          r.send(ok(request));
        }).handleOnEventLoop(FAST).start();
        Connection stuck = Connection.open(server.address(), WAIT, 1 << 20, SECRET);
        Connection free = Connection.open(server.address(), WAIT, 1 << 20, SECRET)) {
      CompletableFuture<Frame> slow = stuck.send(SLOW, 0, new byte[] {1});
      CompletableFuture<Frame> behindIt = stuck.send(FAST, 0, new byte[] {2});
      for (int i = 0; i < 50; i++) {
        assertEquals(MessageType.OK, free.call(FAST, 0, new byte[] {3}, WAIT).type());
        assertEquals(MessageType.OK, free.call(MessageType.DELETE, 0,
            new byte[] {4}, WAIT).type(), "a queued request of another connection too");
      }
      assertTrue(!slow.isDone() && !behindIt.isDone(), "the blocked connection waits, in order");
      release.countDown();
      assertEquals(MessageType.OK, slow.get(10, TimeUnit.SECONDS).type());
      assertEquals(MessageType.OK, behindIt.get(10, TimeUnit.SECONDS).type());
    }
  }

  @Test
  void queuedBytesAboveTheLimit_pauseReading_untilHandled() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    int limit = 1 << 20;
    int frameBytes = 256 << 10;
    try (FrameServer server = new FrameServer("paced", ANY, 4 << 20, SECRET, (request, r) -> {
          awaitQuietly(release);
          r.send(MessageType.reply(request, MessageType.OK, null));
        }).maxQueuedBytes(limit).start();
        Connection c = Connection.open(server.address(), WAIT, 4 << 20, SECRET)) {
      List<CompletableFuture<Frame>> replies = new ArrayList<>();
      for (int i = 0; i < 64; i++) { // 16 MiB offered, far above the 1 MiB limit
        replies.add(c.send(SLOW, 0, new byte[frameBytes]));
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (server.queuedBytes() <= limit && System.nanoTime() < deadline) {
        Thread.sleep(10); // bounded wait for the queue to pass the limit
      }
      long peak = server.queuedBytes();
      Thread.sleep(300); // time enough for a server that ignored the limit to read it all
      long later = server.queuedBytes();
      assertTrue(peak > limit && later <= limit + 2L * (frameBytes + Frame.HEADER_BYTES),
          "reading stopped just past the limit: " + peak + " then " + later + " bytes queued");
      release.countDown();
      for (CompletableFuture<Frame> reply : replies) {
        assertEquals(MessageType.OK, reply.get(20, TimeUnit.SECONDS).type(), "read again");
      }
      assertEquals(0, server.queuedBytes());
    }
  }

  @Test
  void malformedFrame_closesOnlyItsConnection_andHandlerFailure_isAnErrorReply()
      throws Exception {
    try (FrameServer server = new FrameServer("strict", ANY, 1 << 16, SECRET, (request, r) -> {
          if (request.payload().length == 0) {
            throw new IllegalStateException("no payload");
          }
          r.send(ok(request));
        }).start();
        Connection good = Connection.open(server.address(), WAIT, 1 << 16, SECRET);
        Socket raw = new Socket()) {
      raw.connect(server.address(), 10_000);
      raw.setSoTimeout(10_000);
      DataInputStream in = new DataInputStream(raw.getInputStream());
      DataOutputStream out = new DataOutputStream(raw.getOutputStream());
      Handshake.connect(in, out, SECRET);
      out.writeInt((1 << 16) + 1); // a length above the server's limit
      out.flush();
      assertEquals(-1, in.read(), "the connection with the oversized frame is closed");

      Frame failed = good.call(FAST, 0, new byte[0], WAIT);
      assertEquals(MessageType.ERROR, failed.type());
      assertTrue(MessageType.messageOf(failed).contains("no payload"),
          MessageType.messageOf(failed));
      assertEquals(MessageType.OK, good.call(FAST, 0, new byte[] {1}, WAIT).type(),
          "the other connection is served on");
    }
  }

  @Test
  void requestsSentWhileConnecting_leaveAfterTheHandshake() throws Exception {
    try (FrameServer server = new FrameServer("echo", ANY, 1 << 16, SECRET,
        (request, r) -> r.send(ok(request))).handleOnEventLoop(FAST).start()) {
      Connection c = Connection.connect(server.address(), WAIT, 1 << 16, SECRET,
          Connection.ReplyThread.EVENT_LOOP);
      try {
        List<CompletableFuture<Frame>> replies = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          replies.add(c.send(FAST, 0, new byte[] {(byte) i}));
        }
        for (int i = 0; i < 20; i++) {
          assertArrayEquals(new byte[] {(byte) i}, replies.get(i).get(10, TimeUnit.SECONDS)
              .payload());
        }
      } finally {
        c.close();
      }
    }
  }

  @Test
  void connectRefused_orPeerSilent_failsQueuedRequestsAsNotSent() throws Exception {
    int freePort;
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      freePort = probe.getLocalPort();
    }
    Connection refused = Connection.connect(new InetSocketAddress("127.0.0.1", freePort), WAIT,
        1 << 16, SECRET, Connection.ReplyThread.OWN_QUEUE);
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> refused.send(FAST, 0, new byte[] {1}).get(10, TimeUnit.SECONDS));
    assertInstanceOf(NotSentException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("cannot connect to"),
        e.getCause().getMessage());

    // A stopped process's socket: the kernel accepts, nobody ever sends the challenge.
    try (ServerSocket silent = new ServerSocket(0, 50,
        java.net.InetAddress.getLoopbackAddress())) {
      long start = System.nanoTime();
      Connection hung = Connection.connect(new InetSocketAddress("127.0.0.1",
          silent.getLocalPort()), Duration.ofMillis(500), 1 << 16, SECRET,
          Connection.ReplyThread.EVENT_LOOP);
      ExecutionException late = assertThrows(ExecutionException.class,
          () -> hung.send(FAST, 0, new byte[] {1}).get(10, TimeUnit.SECONDS));
      assertInstanceOf(NotSentException.class, late.getCause());
      assertTrue(late.getCause().getMessage().contains("no handshake within 500 ms"),
          late.getCause().getMessage());
      assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(500),
          "not before its timeout");
      IOException open = assertThrows(IOException.class, () -> Connection.open(
          new InetSocketAddress("127.0.0.1", silent.getLocalPort()), Duration.ofMillis(300),
          1 << 16, SECRET));
      assertTrue(open.getMessage().contains("no handshake within 300 ms"), open.getMessage());
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
