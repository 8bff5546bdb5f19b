package org.fawnpack.kv.wire;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import org.fawnpack.kv.auth.ClusterSecret;

/**
 * The first handler of a connection this side opened: answers the server's challenge, checks
 * its acceptance ({@link Handshake}) and then lets the connection's requests go. Whatever goes
 * wrong first (a wrong proof, a hang-up, a frame out of turn) is what the connection reports.
 */
final class ClientHandshake extends ChannelInboundHandlerAdapter {
  /** What the connection does when the handshake ends, one way or the other. */
  interface Outcome {
    void proven(ChannelHandlerContext ctx);

    void failed(IOException why);
  }

  private final ClusterSecret secret;
  private final int maxFrameBytes;
  private final Outcome outcome;
  private final byte[] clientNonce = Handshake.nonce();
  private byte[] serverNonce;
  private boolean over;

  ClientHandshake(ClusterSecret secret, int maxFrameBytes, Outcome outcome) {
    this.secret = secret;
    this.maxFrameBytes = maxFrameBytes;
    this.outcome = outcome;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (over) {
      return;
    }
    Frame frame = (Frame) msg;
    try {
      if (serverNonce == null) {
        Frame response = Handshake.respond(frame, clientNonce, secret);
        serverNonce = frame.payload();
        ctx.writeAndFlush(FrameDecoder.encode(response, ctx.alloc()));
        return;
      }
      Handshake.checkAccepted(frame, serverNonce, clientNonce, secret);
    } catch (IOException e) {
      fail(ctx, e);
      return;
    }
    over = true;
    ctx.pipeline().get(FrameDecoder.class).limit(maxFrameBytes);
    ctx.pipeline().remove(this);
    outcome.proven(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    fail(ctx, serverNonce != null ? Handshake.refusedByServer()
        : new IOException("the connection closed before a challenge"));
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    fail(ctx, new IOException(ServedConnection.reason(cause), cause));
  }

  private void fail(ChannelHandlerContext ctx, IOException why) {
    if (!over) {
      over = true;
      outcome.failed(why);
    }
    ctx.close();
  }
}
