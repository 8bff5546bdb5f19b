package org.fawnpack.kv.wire;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Member;

/**
 * One connection per ring member, opened on first use and opened again after it broke. One
 * connection per peer is what keeps a chain's forwarded writes in order. A connect waits only
 * for its own member: one that hangs (a stopped process accepts, then answers nothing) holds
 * up no request to another.
 */
public final class ConnectionPool implements Closeable {
  private final Duration connectTimeout;
  private final int maxFrameBytes;
  private final ClusterSecret secret;
  private final Map<Member, Connection> connections = new ConcurrentHashMap<>();
  private final Map<Member, Object> connecting = new ConcurrentHashMap<>();

  public ConnectionPool(Duration connectTimeout, int maxFrameBytes, ClusterSecret secret) {
    this.connectTimeout = connectTimeout;
    this.maxFrameBytes = maxFrameBytes;
    this.secret = secret;
  }

  public Connection to(Member member) throws IOException {
    Connection existing = connections.get(member);
    if (existing != null && !existing.isBroken()) {
      return existing;
    }
    synchronized (connecting.computeIfAbsent(member, m -> new Object())) {
      existing = connections.get(member);
      if (existing == null || existing.isBroken()) {
        existing = Connection.open(new InetSocketAddress(member.host(), member.port()),
            connectTimeout, maxFrameBytes, secret);
        connections.put(member, existing);
      }
      return existing;
    }
  }

  @Override
  public void close() {
    connections.values().forEach(Connection::close);
  }
}
