package org.fawnpack.kv.wire;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.fawnpack.kv.auth.ClusterSecret;

/**
 * A connection that one thread at a time uses for one request and its reply, both on that
 * thread: the caller writes the frame and reads the answer itself, so a call wakes no other
 * thread on this side (a {@link Connection} hands each reply from its reader thread to the
 * caller). For synchronous single requests from many threads, each borrowing a connection of
 * its own ({@code client.BorrowedConnections}), as Jedis's pool and blocking RPC clients do.
 * Not thread-safe. A call that fails or times out breaks it: a reply may still be on its way,
 * and the next call would read it as its own.
 */
public final class BlockingConnection implements Closeable {
  private final String peer;
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final int maxFrameBytes;
  private long ids;
  private boolean broken;
  /** The read timeout the socket has now: set only when a call needs another (a syscall). */
  private int timeoutMs = -1;

  private BlockingConnection(String peer, Socket socket, DataInputStream in,
      DataOutputStream out, int maxFrameBytes) {
    this.peer = peer;
    this.socket = socket;
    this.in = in;
    this.out = out;
    this.maxFrameBytes = maxFrameBytes;
  }

  /**
   * Connects to {@code address} and proves the cluster secret ({@link Handshake}), each within
   * {@code connectTimeout}.
   */
  public static BlockingConnection open(InetSocketAddress address, Duration connectTimeout,
      int maxFrameBytes, ClusterSecret secret) throws IOException {
    AuthenticatedSocket opened = AuthenticatedSocket.open(address, connectTimeout, secret);
    return new BlockingConnection(address.toString(), opened.socket(), opened.in(),
        opened.out(), maxFrameBytes);
  }

  /**
   * Sends a request and reads its reply on this thread, waiting at most {@code timeout}.
   *
   * @throws NoReplyException when no reply came within it (the connection is broken then)
   * @throws IOException when the link broke; the request may or may not have been handled
   */
  public Frame call(byte type, long epoch, byte[] payload, Duration timeout) throws IOException {
    if (broken) {
      throw new NotSentException(new IOException("the connection to " + peer + " broke"));
    }
    long id = ++ids;
    try {
      int wantMs = (int) Math.max(1, timeout.toMillis());
      if (wantMs != timeoutMs) {
        socket.setSoTimeout(wantMs);
        timeoutMs = wantMs;
      }
      new Frame(type, id, epoch, payload).writeTo(out);
      out.flush();
      Frame reply = Frame.readFrom(in, maxFrameBytes);
      if (reply == null) {
        throw new IOException(peer + " closed the connection");
      }
      if (reply.requestId() != id) {
        throw new MalformedFrameException("a reply to request " + reply.requestId() + " from "
            + peer + ", request " + id + " was the only one sent");
      }
      return reply;
    } catch (SocketTimeoutException e) {
      close();
      throw new NoReplyException(MessageType.name(type) + " to " + peer + " had no reply within "
          + timeout.toMillis() + " ms");
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  public boolean isBroken() {
    return broken;
  }

  @Override
  public String toString() {
    return peer;
  }

  @Override
  public void close() {
    broken = true;
    try {
      socket.close();
    } catch (IOException e) {
      // A socket that fails to close is gone for this side either way.
      org.slf4j.LoggerFactory.getLogger(BlockingConnection.class).debug("closing {}: {}", peer,
          e.toString());
    }
  }
}
