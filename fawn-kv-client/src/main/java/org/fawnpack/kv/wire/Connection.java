package org.fawnpack.kv.wire;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.fawnpack.kv.auth.ClusterSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calling side of one TCP connection, on the JVM's event loops: requests are pipelined
 * (sent without waiting), each with a fresh id, and each request's future completes when the
 * reply with its id arrives, in whatever order replies come. Frames leave in the order
 * {@link #send} is called, which chain replication relies on, and are flushed once per pass of
 * the loop. When the connection breaks, every open request fails with the cause, and so does
 * every later one. It opens with the cluster-secret handshake: a server that does not share the
 * secret is never sent a request. A connection being opened takes requests at once and sends
 * them when the handshake is done ({@link #connect}), so no caller waits for a connect.
 */
public final class Connection implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Connection.class);
  /** Completes replies in order per connection, off the event loop (see {@link ReplyThread}). */
  private static final ExecutorService REPLY_POOL = Executors.newCachedThreadPool(
      new io.netty.util.concurrent.DefaultThreadFactory("fawn-kv-replies", true));

  /** Where a reply's future completes, and so where what is chained on it runs. */
  public enum ReplyThread {
    /** On the event loop: for callers that only wait, or chain work that never blocks. */
    EVENT_LOOP,
    /** In order on a pool thread of this connection's: chained work may block. */
    OWN_QUEUE
  }

  private final String peer;
  private final Channel channel;
  private final OutboundFrames outbound;
  private final Executor completions;
  private final Map<Long, CompletableFuture<Frame>> open = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final AtomicReference<IOException> broken = new AtomicReference<>();
  private final CompletableFuture<Void> proven = new CompletableFuture<>();

  private Connection(String peer, Channel channel, ReplyThread replyThread) {
    this.peer = peer;
    this.channel = channel;
    this.outbound = new OutboundFrames(channel, false);
    this.completions = replyThread == ReplyThread.EVENT_LOOP ? null
        : new SerialExecutor(REPLY_POOL);
  }

  /**
   * Connects to {@code address} and proves the cluster secret ({@link Handshake}), together
   * within {@code connectTimeout}, waiting for both; replies complete on {@link
   * ReplyThread#OWN_QUEUE}.
   */
  public static Connection open(InetSocketAddress address, Duration connectTimeout,
      int maxFrameBytes, ClusterSecret secret) throws IOException {
    return open(address, connectTimeout, maxFrameBytes, secret, ReplyThread.OWN_QUEUE);
  }

  /** As {@link #open(InetSocketAddress, Duration, int, ClusterSecret)}, replies on {@code replyThread}. */
  public static Connection open(InetSocketAddress address, Duration connectTimeout,
      int maxFrameBytes, ClusterSecret secret, ReplyThread replyThread) throws IOException {
    Connection c = connect(address, connectTimeout, maxFrameBytes, secret, replyThread);
    c.awaitProven(connectTimeout);
    return c;
  }

  /**
   * Starts connecting to {@code address} and returns at once: requests sent meanwhile leave
   * once the handshake is done, and fail with {@link NotSentException} if the connect or the
   * handshake fails or takes longer than {@code connectTimeout}.
   */
  public static Connection connect(InetSocketAddress address, Duration connectTimeout,
      int maxFrameBytes, ClusterSecret secret, ReplyThread replyThread) {
    java.util.Objects.requireNonNull(secret, "a cluster secret");
    Channel channel = EventLoops.newChannel();
    int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()));
    channel.config().setOption(ChannelOption.TCP_NODELAY, true);
    channel.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMs);
    Connection c = new Connection(address.toString(), channel, replyThread);
    secret.tls().ifPresent(tls -> channel.pipeline().addLast("tls", tls.clientContext()
        .newHandler(channel.alloc(), address.getHostString(), address.getPort())));
    channel.pipeline().addLast("frames", new FrameDecoder(Handshake.MAX_FRAME_BYTES));
    channel.pipeline().addLast("handshake", new ClientHandshake(
        secret, maxFrameBytes,
        c.new HandshakeOutcome()));
    channel.pipeline().addLast("replies", c.new ReplyReader());
    EventLoops.group().register(channel).addListener(registered -> {
      if (!registered.isSuccess()) {
        c.cannotConnect(registered.cause());
        return;
      }
      channel.eventLoop().schedule(() -> {
        if (!c.proven.isDone()) {
          c.cannotConnect(new TimeoutException("no handshake within " + timeoutMs + " ms"
              + (secret.tls().isEmpty() ? " (no challenge came: the peer is stopped, or has"
              + " TLS on and this side not?)" : "")));
        }
      }, timeoutMs, TimeUnit.MILLISECONDS);
      channel.connect(address).addListener(connected -> {
        if (!connected.isSuccess()) {
          c.cannotConnect(connected.cause());
        }
      });
    });
    return c;
  }

  /**
   * Sends a request; the future completes with its reply, or fails when the link breaks (with
   * {@link NotSentException} when it broke before this request was written).
   */
  public CompletableFuture<Frame> send(byte type, long epoch, byte[] payload) {
    IOException already = broken.get();
    if (already != null) {
      return CompletableFuture.failedFuture(new NotSentException(already));
    }
    long id = ids.incrementAndGet();
    CompletableFuture<Frame> reply = new CompletableFuture<>();
    open.put(id, reply);
    outbound.add(new Frame(type, id, epoch, payload));
    already = broken.get();
    if (already != null && open.remove(id) != null) { // broke meanwhile; fail() may have missed it
      reply.completeExceptionally(new NotSentException(already));
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
    return broken.get() != null;
  }

  private void awaitProven(Duration timeout) throws IOException {
    try {
      // The connection's own timer fails it within the timeout; the margin is for that timer.
      proven.get(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw (IOException) e.getCause(); // only fail() completes it exceptionally
    } catch (TimeoutException e) {
      cannotConnect(e);
      throw broken.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new IOException("interrupted connecting to " + peer, e);
    }
  }

  private void cannotConnect(Throwable cause) {
    String why = cause.getMessage() != null ? cause.getMessage() : cause.toString();
    fail(new IOException("cannot connect to " + peer + ": " + why, cause));
  }

  private void fail(IOException cause) {
    if (!broken.compareAndSet(null, cause)) {
      return;
    }
    LOG.debug("{}", cause.getMessage());
    channel.close();
    proven.completeExceptionally(cause);
    NotSentException notSent = new NotSentException(cause);
    for (Frame unwritten : outbound.takeUnwritten()) {
      CompletableFuture<Frame> waiting = open.remove(unwritten.requestId());
      if (waiting != null) {
        completeLater(() -> waiting.completeExceptionally(notSent));
      }
    }
    for (Long id : open.keySet()) {
      CompletableFuture<Frame> waiting = open.remove(id);
      if (waiting != null) {
        completeLater(() -> waiting.completeExceptionally(cause));
      }
    }
  }

  /** Runs a completion where this connection's replies complete (see {@link ReplyThread}). */
  private void completeLater(Runnable completion) {
    if (completions == null) {
      completion.run();
    } else {
      completions.execute(completion);
    }
  }

  @Override
  public void close() {
    fail(new IOException("connection to " + peer + " closed here"));
  }

  /** Lets requests go once the server proved the secret; fails the connection otherwise. */
  private final class HandshakeOutcome implements ClientHandshake.Outcome {
    @Override
    public void proven(ChannelHandlerContext ctx) {
      proven.complete(null);
      outbound.open();
    }

    @Override
    public void failed(IOException why) {
      cannotConnect(why);
    }
  }

  /** Completes each reply's future, on the loop or this connection's queue. */
  private final class ReplyReader extends SimpleChannelInboundHandler<Frame> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame reply) {
      CompletableFuture<Frame> waiting = open.remove(reply.requestId());
      if (waiting == null) {
        return; // its caller gave up waiting (deadline) before it came
      }
      completeLater(() -> waiting.complete(reply));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      fail(new IOException(peer + " closed the connection"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      fail(new IOException("connection to " + peer + " broke: "
          + ServedConnection.reason(cause), cause));
    }
  }
}
