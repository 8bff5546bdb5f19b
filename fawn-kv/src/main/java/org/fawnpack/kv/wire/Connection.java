package org.fawnpack.kv.wire;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.fawnpack.kv.auth.ClusterSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calling side of one TCP connection: requests are pipelined (sent without waiting), each
 * with a fresh id, and a reader thread completes each request's future when the reply with its
 * id arrives, in whatever order replies come. Frames leave in the order {@link #send} is
 * called, which chain replication relies on. When the connection breaks, every open request
 * fails with the cause, and so does every later one. It opens with the cluster-secret
 * handshake: a server that does not share the secret is never sent a request.
 */
public final class Connection implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Connection.class);

  private final String peer;
  private final Socket socket;
  private final DataOutputStream out;
  private final int maxFrameBytes;
  private final Map<Long, CompletableFuture<Frame>> open = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private volatile IOException broken;

  private Connection(String peer, Socket socket, DataInputStream in, DataOutputStream out,
      int maxFrameBytes) {
    this.peer = peer;
    this.socket = socket;
    this.maxFrameBytes = maxFrameBytes;
    this.out = out;
    Thread reader = new Thread(() -> readReplies(in), "fawn-kv-replies-" + peer);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Connects to {@code address} and proves the cluster secret ({@link Handshake}), each within
   * {@code connectTimeout}.
   */
  public static Connection open(InetSocketAddress address, Duration connectTimeout,
      int maxFrameBytes, ClusterSecret secret) throws IOException {
    AuthenticatedSocket opened = AuthenticatedSocket.open(address, connectTimeout, secret);
    opened.socket().setSoTimeout(0); // its reader waits for replies as long as it takes
    return new Connection(address.toString(), opened.socket(), opened.in(), opened.out(),
        maxFrameBytes);
  }

  /**
   * Sends a request; the future completes with its reply, or fails when the link breaks (with
   * {@link NotSentException} when it had broken before this request was written).
   */
  public CompletableFuture<Frame> send(byte type, long epoch, byte[] payload) {
    long id = ids.incrementAndGet();
    CompletableFuture<Frame> reply = new CompletableFuture<>();
    try {
      synchronized (out) {
        IOException already = broken;
        if (already != null) {
          return CompletableFuture.failedFuture(new NotSentException(already));
        }
        open.put(id, reply);
        new Frame(type, id, epoch, payload).writeTo(out);
        out.flush();
      }
    } catch (IOException e) {
      fail(e);
    }
    return reply;
  }

  /**
   * Sends a request and waits for its reply at most {@code deadline}.
   *
   * @throws NoReplyException when no reply came within it (the link may still be whole)
   */
  public Frame call(byte type, long epoch, byte[] payload, Duration deadline)
      throws IOException {
    CompletableFuture<Frame> reply = send(type, epoch, payload);
    try {
      return reply.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      reply.cancel(false);
      throw new NoReplyException(MessageType.name(type) + " to " + peer + " had no reply within "
          + deadline.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException io ? io : new IOException(cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for " + peer, e);
    }
  }

  /** The peer's address, for messages. */
  @Override
  public String toString() {
    return peer;
  }

  public boolean isBroken() {
    return broken != null;
  }

  private void readReplies(DataInputStream in) {
    try {
      Frame reply;
      while ((reply = Frame.readFrom(in, maxFrameBytes)) != null) {
        CompletableFuture<Frame> waiting = open.remove(reply.requestId());
        if (waiting != null) {
          waiting.complete(reply);
        } // else: its caller gave up waiting (deadline) before it came
      }
      fail(new IOException(peer + " closed the connection"));
    } catch (IOException e) {
      fail(new IOException("connection to " + peer + " broke: " + e.getMessage(), e));
    }
  }

  private void fail(IOException cause) {
    if (broken == null) {
      broken = cause;
      LOG.debug("{}", cause.getMessage());
    }
    closeQuietly();
    for (Long id : open.keySet()) {
      CompletableFuture<Frame> waiting = open.remove(id);
      if (waiting != null) {
        waiting.completeExceptionally(broken);
      }
    }
  }

  private void closeQuietly() {
    try {
      socket.close();
    } catch (IOException e) {
      LOG.debug("closing the connection to {}: {}", peer, e.toString());
    }
  }

  @Override
  public void close() {
    fail(new IOException("connection to " + peer + " closed here"));
  }
}
