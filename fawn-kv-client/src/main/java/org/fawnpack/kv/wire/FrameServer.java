package org.fawnpack.kv.wire;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.fawnpack.kv.auth.ClusterSecret;

/**
 * The serving side, on the JVM's event loops ({@link EventLoops}): accepts connections (inside
 * TLS when the secret carries TLS credentials: a peer without TLS or without a certificate the
 * trust store vouches for is refused, the reason logged), refuses those that do not prove the
 * cluster secret within 10 s ({@link Handshake}), and hands each
 * connection's requests to the {@link Handler} in the order they came (so a chain member applies
 * its predecessor's writes in the order they were sent). Requests of the types named by
 * {@link #handleOnEventLoop} are handled on the event loop, so their handlers must never block;
 * all others on a queue per connection served by a shared pool, where a handler may block (it
 * then holds up only its own connection). The handler may reply at once or later, from any
 * thread; replies are flushed once per pass of the loop. A malformed frame closes its
 * connection, with the reason logged; a handler's unexpected exception becomes an ERROR reply
 * and is logged; neither stops the server.
 */
public final class FrameServer implements Closeable {
  /** Handles one request; {@code replies} sends the reply, now or later. */
  public interface Handler {
    void handle(Frame request, Replies replies) throws IOException;
  }

  /** The way back to one connection's peer. */
  public interface Replies {
    void send(Frame reply);

    /**
     * Sends {@code head} (its payload empty) with {@code body} as its payload, and releases
     * the body. A served connection writes the body as it is, after the frame's header (a
     * scan's page goes from the buffers it was written into to the socket); anything else
     * copies it into an array first.
     */
    default void sendWithBody(Frame head, io.netty.buffer.ByteBuf body) {
      byte[] payload;
      try {
        payload = io.netty.buffer.ByteBufUtil.getBytes(body);
      } finally {
        body.release();
      }
      send(new Frame(head.type(), head.requestId(), head.epoch(), payload));
    }

    /**
     * Sends {@code head} (its payload empty) with a payload of {@code prefix} followed by
     * {@code count} bytes of {@code file} from {@code position}. A served connection without
     * TLS hands those bytes from the file to the socket in the kernel ({@code sendfile}: a
     * copy's pieces pass through no buffer of ours); anything else reads them into the payload
     * first. The bytes must stay as they are until written (a snapshot's).
     */
    default void sendWithFile(Frame head, byte[] prefix, java.nio.file.Path file,
        long position, int count) throws java.io.IOException {
      send(new Frame(head.type(), head.requestId(), head.epoch(),
          FileRegions.read(prefix, file, position, count)));
    }

    /**
     * False while the request is handled on the event loop: a handler that would wait must
     * throw {@link WouldBlockException} before it changes anything, and runs again where it
     * may wait.
     */
    default boolean mayBlock() {
      return true;
    }
  }

  /** How long a new connection has to prove the cluster secret. */
  private static final int HANDSHAKE_MILLIS = 10_000;
  /** Above this many bytes of unsent replies a connection is not read (see ServedConnection). */
  private static final WriteBufferWaterMark REPLY_BUFFER = new WriteBufferWaterMark(1 << 20,
      4 << 20);

  private final String name;
  private final int maxFrameBytes;
  private final ClusterSecret secret;
  private final Handler handler;
  private final boolean[] onLoop = new boolean[256];
  private final Channel listening;
  private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final ExecutorService workers;
  private final java.util.Set<ServedConnection> served = java.util.concurrent.ConcurrentHashMap
      .newKeySet();
  private volatile long maxQueuedBytes = 32L << 20;

  /** Binds at once (port 0: any free port); serves from {@link #start()}. */
  public FrameServer(String name, InetSocketAddress bind, int maxFrameBytes,
      ClusterSecret secret, Handler handler) throws IOException {
    this.name = name;
    this.maxFrameBytes = maxFrameBytes;
    this.secret = java.util.Objects.requireNonNull(secret, "a cluster secret");
    this.handler = handler;
    this.workers = Executors.newCachedThreadPool(
        new io.netty.util.concurrent.DefaultThreadFactory(name.replace(' ', '-') + "-worker",
            true));
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(EventLoops.group())
        .channel(EventLoops.serverChannel())
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.AUTO_READ, false) // read from start(), as the old server did
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, REPLY_BUFFER)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel channel) {
            connections.add(channel);
            FrameServer.this.secret.tls().ifPresent(tls -> channel.pipeline().addLast("tls",
                tls.serverContext().newHandler(channel.alloc())));
            channel.pipeline().addLast("frames", new FrameDecoder(Handshake.MAX_FRAME_BYTES));
            channel.pipeline().addLast("handshake", new ServerHandshake(FrameServer.this.name,
                FrameServer.this.secret, HANDSHAKE_MILLIS, FrameServer.this.maxFrameBytes,
                () -> serving(channel)));
            if (started) {
              channel.config().setAutoRead(true);
            }
          }
        });
    ChannelFuture bound = bootstrap.bind(bind).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      workers.shutdown();
      throw new IOException(name + ": cannot listen on " + bind + ": "
          + bound.cause().getMessage(), bound.cause());
    }
    this.listening = bound.channel();
  }

  private volatile boolean started;

  private ServedConnection serving(Channel channel) {
    ServedConnection connection = new ServedConnection(name, handler, onLoop, workers,
        maxQueuedBytes);
    served.add(connection);
    channel.closeFuture().addListener(closed -> served.remove(connection));
    return connection;
  }

  /**
   * Above this many bytes of requests read from one connection and queued for its handler, and
   * not yet handled, the connection is not read until they fall below it again (32 MiB unless
   * set; connections made later get the new limit).
   */
  FrameServer maxQueuedBytes(long bytes) {
    this.maxQueuedBytes = bytes;
    return this;
  }

  /** Bytes read and queued, not yet handled, over every connection now open. */
  long queuedBytes() {
    return served.stream().mapToLong(ServedConnection::queuedBytes).sum();
  }

  /**
   * Marks request types whose handlers never block (no lock held across I/O, no waiting for
   * another node): they run on the event loop, without a hand-off to another thread.
   */
  public FrameServer handleOnEventLoop(byte... types) {
    for (byte type : types) {
      onLoop[type & 0xff] = true;
    }
    return this;
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) listening.localAddress();
  }

  public FrameServer start() {
    started = true;
    for (Channel connection : connections) {
      connection.config().setAutoRead(true);
    }
    return this;
  }

  @Override
  public void close() throws IOException {
    listening.close().awaitUninterruptibly();
    connections.close().awaitUninterruptibly();
    workers.shutdown();
  }
}
