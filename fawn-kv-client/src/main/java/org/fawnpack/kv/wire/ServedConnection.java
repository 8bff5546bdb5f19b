package org.fawnpack.kv.wire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One proven connection of a {@link FrameServer}: hands its requests to the handler in the
 * order they came, on the event loop for the types the server marks as never blocking (while no
 * earlier request of the connection is still queued, and unless the handler finds it would have
 * to wait: {@link WouldBlockException}), on a queue of its own otherwise; sends
 * replies through {@link OutboundFrames}. Reading pauses while the requests it queued and has
 * not handled pass a limit, or while its peer does not take its replies.
 */
final class ServedConnection extends SimpleChannelInboundHandler<Frame>
    implements FrameServer.Replies {
  private static final Logger LOG = LoggerFactory.getLogger(ServedConnection.class);

  private final String server;
  private final FrameServer.Handler handler;
  private final boolean[] onLoop;
  private final SerialExecutor queue;
  private final long maxQueuedBytes;
  private final AtomicLong queuedBytes = new AtomicLong();
  private volatile boolean paused;
  /** The loop is inside {@link #handledOnLoop}; read and written on the loop only. */
  private boolean handlingOnLoop;
  private ChannelHandlerContext ctx;
  private OutboundFrames outbound;
  private String peer;

  ServedConnection(String server, FrameServer.Handler handler, boolean[] onLoop,
      Executor workers, long maxQueuedBytes) {
    this.server = server;
    this.maxQueuedBytes = maxQueuedBytes;
    this.handler = handler;
    this.onLoop = onLoop;
    this.queue = new SerialExecutor(workers);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    this.outbound = new OutboundFrames(ctx.channel(), true);
    this.peer = String.valueOf(ctx.channel().remoteAddress());
  }

  /** Bytes of requests read and queued, not yet handled. */
  long queuedBytes() {
    return queuedBytes.get();
  }

  /** The handshake is done: {@code accepted} goes out before any reply. */
  void start(Frame accepted) {
    outbound.add(accepted);
  }

  @Override
  public void send(Frame reply) {
    outbound.add(reply);
  }

  @Override
  public void sendWithBody(Frame head, io.netty.buffer.ByteBuf body) {
    outbound.addWithBody(head, body);
  }

  @Override
  public void sendWithFile(Frame head, byte[] prefix, java.nio.file.Path file, long position,
      int count) throws java.io.IOException {
    if (ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class) != null) {
      FrameServer.Replies.super.sendWithFile(head, prefix, file, position, count); // encrypted
      return;
    }
    outbound.addWithFile(head, prefix, file, position, count);
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Frame request) {
    if (onLoop[request.type() & 0xff] && queue.idle() && handledOnLoop(request)) {
      return;
    }
    long bytes = request.payload().length + Frame.HEADER_BYTES;
    queuedBytes.addAndGet(bytes);
    queue.execute(() -> {
      handle(request);
      queuedBytes.addAndGet(-bytes);
      if (paused) {
        ctx.executor().execute(this::adjustReading);
      }
    });
    if (queuedBytes.get() > maxQueuedBytes) {
      adjustReading();
    }
  }

  /** Handles {@code request} here on the loop; false when it must wait (queue it). */
  private boolean handledOnLoop(Frame request) {
    handlingOnLoop = true;
    try {
      handle(request);
      return true;
    } catch (WouldBlockException e) {
      return false;
    } finally {
      handlingOnLoop = false;
    }
  }

  @Override
  public boolean mayBlock() {
    // Only the call handledOnLoop makes: a held request run again from a timer may block.
    return !(handlingOnLoop && ctx.executor().inEventLoop());
  }

  private void handle(Frame request) {
    try {
      handler.handle(request, this);
    } catch (MalformedFrameException e) {
      LOG.warn("{}: closing the connection from {}: {}", server, peer, e.getMessage());
      ctx.close();
    } catch (WouldBlockException e) {
      if (!mayBlock()) {
        throw e; // handledOnLoop queues it
      }
      LOG.error("{}: {} from {} would block where it may: {}", server,
          MessageType.name(request.type()), peer, e.getMessage());
      send(MessageType.error(request, server + ": " + e.getMessage()));
    } catch (IOException | RuntimeException e) {
      LOG.error("{}: {} from {} failed", server, MessageType.name(request.type()), peer, e);
      send(MessageType.error(request, server + ": " + e));
    }
  }

  /**
   * On the event loop only. {@code paused} is set before the count is read, so a handler that
   * lowers the count after this read sees it set and asks for another look.
   */
  private void adjustReading() {
    paused = true;
    boolean read = queuedBytes.get() <= maxQueuedBytes && ctx.channel().isWritable();
    if (read) {
      paused = false;
    }
    ctx.channel().config().setAutoRead(read);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    adjustReading();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    LOG.debug("{}: connection from {} ended", server, peer);
    outbound.discardBodies(); // replies left unwritten: their buffers go back to the pool
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable why = cause instanceof DecoderException && cause.getCause() != null
        ? cause.getCause() : cause;
    if (why instanceof MalformedFrameException) {
      LOG.warn("{}: closing the connection from {}: {}", server, peer, why.getMessage());
    } else {
      LOG.debug("{}: connection from {} ended: {}", server, peer, why.toString());
    }
    ctx.close();
  }

  /** A cause's message, unwrapped from Netty's decoder wrapper, TLS failures named. */
  static String reason(Throwable cause) {
    Throwable why = cause instanceof DecoderException && cause.getCause() != null
        ? cause.getCause() : cause;
    if (why instanceof io.netty.handler.ssl.NotSslRecordException) {
      return "the peer does not speak TLS, and TLS is on here (fawn.kv.tls.enabled)";
    }
    String message = why.getMessage() != null ? why.getMessage() : why.toString();
    return why instanceof javax.net.ssl.SSLException ? "TLS handshake failed: " + message
        : message;
  }
}
