package org.fawnpack.kv.wire;

import java.io.Closeable;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Member;

/**
 * One connection per ring member, opened on first use and opened again after it broke. One
 * connection per peer is what keeps a chain's forwarded writes in order. Connects never block
 * the caller ({@link Connection#connect}): requests to a member being connected wait in its
 * connection until the handshake is done, and fail as not sent if it fails, so a member that
 * hangs (a stopped process accepts, then answers nothing) holds up no request to another.
 */
public final class ConnectionPool implements Closeable {
  private final Duration connectTimeout;
  private final int maxFrameBytes;
  private final ClusterSecret secret;
  private final Connection.ReplyThread replyThread;
  private final Map<Member, Connection> connections = new ConcurrentHashMap<>();

  /** A pool whose replies complete in order off the event loop: chained work may block. */
  public ConnectionPool(Duration connectTimeout, int maxFrameBytes, ClusterSecret secret) {
    this(connectTimeout, maxFrameBytes, secret, Connection.ReplyThread.OWN_QUEUE);
  }

  public ConnectionPool(Duration connectTimeout, int maxFrameBytes, ClusterSecret secret,
      Connection.ReplyThread replyThread) {
    this.connectTimeout = connectTimeout;
    this.maxFrameBytes = maxFrameBytes;
    this.secret = secret;
    this.replyThread = replyThread;
  }

  public Connection to(Member member) {
    Connection existing = connections.get(member);
    if (existing != null && !existing.isBroken()) {
      return existing;
    }
    return connections.compute(member, (m, current) -> current != null && !current.isBroken()
        ? current : Connection.connect(new InetSocketAddress(m.host(), m.port()),
            connectTimeout, maxFrameBytes, secret, replyThread));
  }

  @Override
  public void close() {
    connections.values().forEach(Connection::close);
  }
}
