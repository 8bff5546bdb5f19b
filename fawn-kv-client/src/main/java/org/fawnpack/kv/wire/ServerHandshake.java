package org.fawnpack.kv.wire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.fawnpack.kv.auth.ClusterSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first handler of a served connection: sends the challenge, checks the client's proof
 * ({@link Handshake}) and then puts the connection's request handler in its place. A peer that
 * sends anything else, proves nothing within the time allowed or a wrong proof is logged and
 * hung up on; no request of its reaches a handler.
 */
final class ServerHandshake extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ServerHandshake.class);

  private final String server;
  private final ClusterSecret secret;
  private final long timeoutMillis;
  private final int maxFrameBytes;
  private final Supplier<ServedConnection> serving;
  private final byte[] serverNonce = Handshake.nonce();
  private ScheduledFuture<?> deadline;
  private boolean done;

  ServerHandshake(String server, ClusterSecret secret, long timeoutMillis, int maxFrameBytes,
      Supplier<ServedConnection> serving) {
    this.server = server;
    this.secret = secret;
    this.timeoutMillis = timeoutMillis;
    this.maxFrameBytes = maxFrameBytes;
    this.serving = serving;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    deadline = ctx.executor().schedule(() -> refuse(ctx, tlsPending(ctx)
        ? "no TLS handshake within " + timeoutMillis + " ms (a peer without TLS?)"
        : "no proof of the cluster secret within " + timeoutMillis + " ms"),
        timeoutMillis, TimeUnit.MILLISECONDS);
    ctx.writeAndFlush(FrameDecoder.encode(Handshake.challenge(serverNonce), ctx.alloc()));
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (done) {
      return; // hung up already; frames still decoded from the same read are dropped
    }
    Frame accepted;
    try {
      accepted = Handshake.accept((Frame) msg, serverNonce, secret);
    } catch (java.io.IOException e) {
      refuse(ctx, e.getMessage());
      return;
    }
    done = true;
    deadline.cancel(false);
    ctx.pipeline().get(FrameDecoder.class).limit(maxFrameBytes);
    ServedConnection served = serving.get();
    ctx.pipeline().addAfter(ctx.name(), "serve", served);
    ctx.pipeline().remove(this);
    served.start(accepted);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (deadline != null) {
      deadline.cancel(false);
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    refuse(ctx, ServedConnection.reason(cause));
  }

  private static boolean tlsPending(ChannelHandlerContext ctx) {
    io.netty.handler.ssl.SslHandler tls = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
    return tls != null && !tls.handshakeFuture().isDone();
  }

  private void refuse(ChannelHandlerContext ctx, String why) {
    if (!done) {
      done = true;
      LOG.warn("{}: refused the connection from {}: {}", server, ctx.channel().remoteAddress(),
          why);
    }
    ctx.close();
  }
}
