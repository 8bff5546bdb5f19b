package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.wire.BlockingConnection;
import org.fawnpack.kv.wire.ProtocolLimits;

/**
 * {@link BlockingConnection}s to ring members, lent to one thread for one call: a thread takes
 * an idle one (or opens one), calls, and gives it back unless it broke. So a client with n
 * threads calling a member at once holds n connections to it, and each call is answered on its
 * own thread. At most {@link #MAX_IDLE} idle connections per member are kept; more are closed
 * when given back, so a burst leaves no lasting crowd of connections (and reader threads) on a
 * back-end.
 */
final class BorrowedConnections implements Closeable {
  static final int MAX_IDLE = 16;

  private final Duration connectTimeout;
  private final ClusterSecret secret;
  private final Map<Member, Deque<BlockingConnection>> idle = new ConcurrentHashMap<>();
  private volatile boolean closed;

  BorrowedConnections(Duration connectTimeout, ClusterSecret secret) {
    this.connectTimeout = connectTimeout;
    this.secret = secret;
  }

  /** An idle connection to {@code member}, or null; give it back with {@link #giveBack}. */
  BlockingConnection idle(Member member) {
    return idleOf(member).pollFirst();
  }

  /** A new connection to {@code member}; give it back with {@link #giveBack}. */
  BlockingConnection open(Member member) throws IOException {
    return BlockingConnection.open(new InetSocketAddress(member.host(), member.port()),
        connectTimeout, ProtocolLimits.MAX_FRAME_BYTES, secret);
  }

  /** Takes {@code c} back for the next call to {@code member}; closes it if broken or surplus. */
  void giveBack(Member member, BlockingConnection c) {
    Deque<BlockingConnection> free = idleOf(member);
    if (c.isBroken() || closed || free.size() >= MAX_IDLE) {
      c.close();
      return;
    }
    free.offerFirst(c); // the most recently used first: the rest may idle out on the server
    if (closed) {
      closeIdle(); // closed while it was given back
    }
  }

  private Deque<BlockingConnection> idleOf(Member member) {
    return idle.computeIfAbsent(member, m -> new ConcurrentLinkedDeque<>());
  }

  private void closeIdle() {
    for (Deque<BlockingConnection> free : idle.values()) {
      for (BlockingConnection c = free.pollFirst(); c != null; c = free.pollFirst()) {
        c.close();
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    closeIdle();
  }
}
