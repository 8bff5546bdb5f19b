package org.fawnpack.kv.wire;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.fawnpack.kv.auth.ClusterSecret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The serving side: accepts connections, refuses those that do not prove the cluster secret
 * within 10 s ({@link Handshake}), and reads each one's frames in order on a thread of its
 * own, handing every request to the {@link Handler} on that thread (so a chain member applies
 * its predecessor's writes in the order they were sent). The handler may reply at once or
 * later, from any thread. A malformed frame closes its connection, with the reason logged; a
 * handler's unexpected exception becomes an ERROR reply and is logged; neither stops the
 * server.
 */
public final class FrameServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FrameServer.class);

  /** Handles one request; {@code replies} sends the reply, now or later. */
  public interface Handler {
    void handle(Frame request, Replies replies) throws IOException;
  }

  /** The way back to one connection's peer. */
  public interface Replies {
    void send(Frame reply);
  }

  /** How long a new connection has to prove the cluster secret. */
  private static final int HANDSHAKE_MILLIS = 10_000;

  private final String name;
  private final ServerSocket server;
  private final int maxFrameBytes;
  private final ClusterSecret secret;
  private final Handler handler;
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /** Binds at once (port 0: any free port); serves from {@link #start()}. */
  public FrameServer(String name, InetSocketAddress bind, int maxFrameBytes,
      ClusterSecret secret, Handler handler) throws IOException {
    this.name = name;
    this.maxFrameBytes = maxFrameBytes;
    this.secret = java.util.Objects.requireNonNull(secret, "a cluster secret");
    this.handler = handler;
    this.server = new ServerSocket();
    try {
      server.bind(bind);
    } catch (IOException e) {
      server.close();
      throw new IOException(name + ": cannot listen on " + bind + ": " + e.getMessage(), e);
    }
  }

  public InetSocketAddress address() {
    return (InetSocketAddress) server.getLocalSocketAddress();
  }

  public FrameServer start() {
    Thread acceptor = new Thread(this::acceptLoop, name + "-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    return this;
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket socket = server.accept();
        socket.setTcpNoDelay(true);
        connections.add(socket);
        Thread reader = new Thread(() -> serve(socket),
            name + "-" + socket.getRemoteSocketAddress());
        reader.setDaemon(true);
        reader.start();
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("{}: accept failed: {}", name, e.toString());
        }
      }
    }
  }

  private void serve(Socket socket) {
    String peer = String.valueOf(socket.getRemoteSocketAddress());
    try (socket) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
      DataOutputStream out = new DataOutputStream(
          new BufferedOutputStream(socket.getOutputStream()));
      socket.setSoTimeout(HANDSHAKE_MILLIS);
      try {
        Handshake.serve(in, out, secret);
      } catch (IOException e) {
        LOG.warn("{}: refused the connection from {}: {}", name, peer, e.getMessage());
        return;
      }
      socket.setSoTimeout(0);
      Replies replies = reply -> write(out, reply, peer);
      Frame request;
      while ((request = Frame.readFrom(in, maxFrameBytes)) != null) {
        try {
          handler.handle(request, replies);
        } catch (MalformedFrameException e) {
          throw e;
        } catch (IOException | RuntimeException e) {
          LOG.error("{}: {} from {} failed", name, MessageType.name(request.type()), peer, e);
          replies.send(MessageType.error(request, name + ": " + e));
        }
      }
    } catch (MalformedFrameException e) {
      LOG.warn("{}: closing the connection from {}: {}", name, peer, e.getMessage());
    } catch (SocketException e) {
      LOG.debug("{}: connection from {} ended: {}", name, peer, e.toString());
    } catch (IOException e) {
      if (!closed) {
        LOG.info("{}: connection from {} ended: {}", name, peer, e.toString());
      }
    } finally {
      connections.remove(socket);
    }
  }

  private static void write(DataOutputStream out, Frame reply, String peer) {
    synchronized (out) {
      try {
        reply.writeTo(out);
        out.flush();
      } catch (IOException e) {
        LOG.debug("reply to {} not sent: {}", peer, e.toString());
      }
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    for (Socket socket : connections) {
      socket.close();
    }
  }
}
