package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.slice.SliceCodec;
import org.fawnpack.kv.slice.WrongSlice;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MalformedFrameException;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.NoReplyException;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's way to the front-end that serves each key: the cluster's slice map, asked of any
 * front-end it can reach (those it was given, then those the map names), and one pipelined
 * connection per front-end. A WRONG_SLICE answer carries a newer map; a front-end that cannot
 * be reached, or that let a try go unanswered ({@link #noReply}), makes it ask for the map
 * again before the next try, since that front-end's slice moves to others once its ZooKeeper
 * session has expired. Such a front-end is a <em>suspect</em>: the map is asked of the others
 * first, until it answers again. Connecting and asking for the map each wait at most the
 * try's timeout, so a frozen front-end (a process stopped, a long pause) costs a try, not the
 * request's deadline. Thread-safe.
 */
final class SliceRoutes implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SliceRoutes.class);

  private final List<InetSocketAddress> given;
  private final Duration tryTimeout;
  private final ClusterSecret secret;
  private final Map<InetSocketAddress, Connection> open = new HashMap<>(); // guarded by this
  private final Set<InetSocketAddress> suspects = new HashSet<>(); // guarded by this
  private volatile boolean anySuspect; // whether suspects is not empty
  private SliceMap map; // guarded by this
  private boolean mapInDoubt = true; // guarded by this

  SliceRoutes(List<InetSocketAddress> frontEnds, Duration tryTimeout, ClusterSecret secret) {
    this.given = List.copyOf(frontEnds);
    this.tryTimeout = tryTimeout;
    this.secret = secret;
  }

  /**
   * The connection to the front-end that serves {@code key}. When none can be reached the
   * failure is "refused" unless {@code earlierTryMayHaveApplied}.
   */
  synchronized Connection to(byte[] key, boolean earlierTryMayHaveApplied) throws KvException {
    try {
      if (mapInDoubt) {
        refresh();
      }
      return connection(address(map.ownerOf(key)));
    } catch (IOException e) {
      mapInDoubt = true;
      throw new KvException(e.getMessage() + (earlierTryMayHaveApplied
          ? " (an earlier try may have taken effect)" : ""), !earlierTryMayHaveApplied);
    }
  }

  /** Asks for the map now (at connect, so a client with no reachable front-end fails early). */
  synchronized void refresh() throws KvException {
    IOException last = null;
    for (InetSocketAddress candidate : candidates()) {
      try {
        Frame answer = connection(candidate).call(MessageType.SLICES, 0, new byte[0],
            tryTimeout);
        suspects.remove(candidate);
        anySuspect = !suspects.isEmpty();
        if (answer.type() != MessageType.SLICE_MAP) {
          throw new IOException("front-end " + candidate + " answered "
              + MessageType.name(answer.type()) + ": " + MessageType.messageOf(answer));
        }
        // Taken whatever its epoch: a live front-end's map (a stale one is corrected by the
        // first WRONG_SLICE), not one naming a front-end that may be gone.
        map = SliceCodec.decode(answer.payload(), "the slice map of " + candidate);
        mapInDoubt = false;
        return;
      } catch (NoReplyException e) {
        LOG.debug("no slice map from front-end {} in time: {}", candidate, e.getMessage());
        last = e;
        suspects.add(candidate); // frozen or busy: its link is whole, others may use it
        anySuspect = true;
      } catch (IOException | IllegalArgumentException e) {
        LOG.debug("no slice map from front-end {}: {}", candidate, e.getMessage());
        last = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        forget(candidate);
      }
    }
    throw new KvException("no front-end of " + candidates() + " can be reached and give its"
        + " slice map; the last said: " + last.getMessage(), true);
  }

  /** A WRONG_SLICE answer: its map is used from now on if newer. */
  synchronized void wrongSlice(Frame answer) throws KvException {
    try {
      learned(WrongSlice.decode(answer).map());
    } catch (MalformedFrameException e) {
      mapInDoubt = true;
      throw new KvException("a front-end answered WRONG_SLICE without a usable slice map: "
          + e.getMessage(), true);
    }
  }

  /** {@code broken} failed: the next request reconnects, and asks for the map first. */
  synchronized void broken(Connection broken) {
    open.values().removeIf(c -> c == broken);
    mapInDoubt = true;
  }

  /**
   * A try on {@code silent} had no answer within its timeout: that front-end may be frozen,
   * and its slice may be moving to others. The next request asks the others for the map first.
   */
  synchronized void noReply(Connection silent) {
    open.forEach((address, c) -> {
      if (c == silent) {
        suspects.add(address);
      }
    });
    anySuspect = !suspects.isEmpty();
    mapInDoubt = true;
  }

  /** Whether {@code c}'s front-end let a try go unanswered and has not answered since. */
  boolean isSuspect(Connection c) {
    if (!anySuspect) {
      return false;
    }
    synchronized (this) {
      for (Map.Entry<InetSocketAddress, Connection> e : open.entrySet()) {
        if (e.getValue() == c && suspects.contains(e.getKey())) {
          return true;
        }
      }
      return false;
    }
  }

  /** {@code c} answered: its front-end is no longer a suspect. */
  void answered(Connection c) {
    if (!anySuspect) {
      return; // the common case, without taking the lock
    }
    synchronized (this) {
      open.forEach((address, open) -> {
        if (open == c) {
          suspects.remove(address);
        }
      });
      anySuspect = !suspects.isEmpty();
    }
  }

  private void learned(SliceMap next) {
    if (map == null || next.epoch() > map.epoch()) {
      map = next;
    }
  }

  /** The front-ends to ask for the map: those the map names, then those given; suspects last. */
  private Set<InetSocketAddress> candidates() {
    Set<InetSocketAddress> all = new LinkedHashSet<>();
    if (map != null) {
      map.owners().forEach(e -> all.add(address(e)));
    }
    all.addAll(given);
    Set<InetSocketAddress> ordered = new LinkedHashSet<>();
    all.stream().filter(a -> !suspects.contains(a)).forEach(ordered::add);
    ordered.addAll(all);
    return ordered;
  }

  private Connection connection(InetSocketAddress address) throws IOException {
    Connection c = open.get(address);
    if (c == null || c.isBroken()) {
      // Callers only wait on their replies: completed on the event loop, no hand-off.
      c = Connection.open(address, tryTimeout, ProtocolLimits.MAX_FRAME_BYTES, secret,
          Connection.ReplyThread.EVENT_LOOP);
      open.put(address, c);
    }
    return c;
  }

  private void forget(InetSocketAddress address) {
    Connection c = open.remove(address);
    if (c != null) {
      c.close();
    }
  }

  private static InetSocketAddress address(SliceMap.Endpoint e) {
    return new InetSocketAddress(e.host(), e.port());
  }

  @Override
  public synchronized void close() {
    new ArrayList<>(open.values()).forEach(Connection::close);
    open.clear();
  }
}
