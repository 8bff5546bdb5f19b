package org.fawnpack.kv.frontend;

import static org.fawnpack.kv.wire.MessageType.error;
import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.backend.EngineKeys;
import org.fawnpack.kv.coord.RingFollower;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.WriteId;

/**
 * A FAWN-KV front-end: routes each client request in one hop, gets to the tail of the key's
 * chain, puts and deletes to its head, and relays the answer. Bad keys and values are answered
 * REFUSED here, before they travel, and so is a request to a chain whose members are all down
 * (a short chain's head refuses new writes itself, and answers retries). A back-end
 * on another ring epoch answers STALE_RING; the request is routed again, a bounded number of
 * times, once the rings agree. (The hot-object cache and slices of the ring per front-end
 * come next: docs/fawn-kv.md.)
 */
public final class FrontEnd implements Closeable, RingFollower.RingUser {
  /** Reroutes after STALE_RING: a watch delivers a new epoch to every node within this. */
  public static final int STALE_RING_ATTEMPTS = 40;
  public static final long STALE_RING_PAUSE_MS = 50;

  private final String name;
  private final ScheduledExecutorService reroutes;
  private final AtomicLong staleRingAnswers = new AtomicLong();
  private final FrameServer server;
  private final ConnectionPool backends;
  private volatile Ring ring;
  private final FrontEndMetrics metrics;
  private Closeable published = () -> { };

  private FrontEnd(String name, InetSocketAddress bind, ClusterSecret secret)
      throws IOException {
    this.name = name;
    this.metrics = new FrontEndMetrics(name, this::epoch, this::staleRingAnswers);
    this.reroutes = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-reroute-" + name);
      t.setDaemon(true);
      return t;
    });
    this.backends = new ConnectionPool(Duration.ofSeconds(5), Backend.MAX_FRAME_BYTES, secret);
    this.server = new FrameServer("frontend " + name, bind, Backend.MAX_FRAME_BYTES, secret,
        this::handle);
  }

  /**
   * Listens on {@code bind} (port 0: any) at once, for clients that prove {@code secret};
   * routes once it has a ring.
   */
  public static FrontEnd open(String name, InetSocketAddress bind, ClusterSecret secret)
      throws IOException {
    FrontEnd frontEnd = new FrontEnd(name, bind, secret);
    frontEnd.server.start();
    frontEnd.published = org.fawnpack.kv.metrics.Jmx.register("FrontEnd-" + name,
        frontEnd.metrics);
    return frontEnd;
  }

  public InetSocketAddress address() {
    return server.address();
  }

  /** Routes by {@code next} from now on; an epoch not newer than the current one is ignored. */
  @Override
  public synchronized void useRing(Ring next) {
    if (ring == null || next.epoch() > ring.epoch()) {
      ring = next;
    }
  }

  /** How many STALE_RING answers back-ends have given this front-end since it started. */
  public long staleRingAnswers() {
    return staleRingAnswers.get();
  }

  /** The epoch it routes by, or -1 before it has a ring. */
  public long epoch() {
    Ring current = ring;
    return current == null ? -1 : current.epoch();
  }

  private void handle(Frame request, FrameServer.Replies clientReplies) throws IOException {
    FrameServer.Replies replies = metrics.counting(request, clientReplies);
    Ring current = ring;
    if (current == null) {
      replies.send(refused(request, "frontend " + name + " has no ring yet"));
      return;
    }
    byte type = request.type();
    if (type != MessageType.GET && type != MessageType.PUT && type != MessageType.DELETE) {
      replies.send(refused(request, "frontend " + name + " serves GET, PUT and DELETE, not "
          + MessageType.name(type)));
      return;
    }
    Frame.Fields fields = request.fields();
    byte[] key = fields.nextBytes(Integer.MAX_VALUE, "the key");
    String problem = EngineKeys.problemWith(key);
    if (problem == null && type == MessageType.PUT) {
      byte[] value = fields.nextBytes(Integer.MAX_VALUE, "the value");
      problem = value.length > Backend.MAX_VALUE_BYTES ? "the value has " + value.length
          + " bytes, more than " + Backend.MAX_VALUE_BYTES : null;
    }
    if (problem != null) {
      replies.send(refused(request, problem));
      return;
    }
    if (type != MessageType.GET) {
      WriteId.next(fields); // passed on as it is: the head keeps it with the write
      fields.nextLong(); // whether an earlier try may have taken effect
    }
    fields.end();
    route(request, key, replies, 1);
  }

  private void route(Frame request, byte[] key, FrameServer.Replies replies, int attempt) {
    Ring current = ring;
    Chain chain = current.chainForKey(key);
    boolean get = request.type() == MessageType.GET;
    // A short chain's head still answers retries of writes it committed; it refuses new ones.
    if (chain.isEmpty()) {
      replies.send(refused(request, "every member of the chain of " + chain.range()
          + " is down in ring epoch " + current.epoch()));
      return;
    }
    Member target = get ? chain.tail() : chain.head();
    Connection backend;
    try {
      backend = backends.to(target);
    } catch (IOException e) {
      replies.send(refused(request, "frontend " + name + ": " + e.getMessage()));
      return;
    }
    backend.send(request.type(), current.epoch(), request.payload()).whenComplete(
        (answer, failure) -> {
          if (failure != null) {
            replies.send(error(request, "frontend " + name + ": " + failure.getMessage()));
            return;
          }
          if (answer.type() != MessageType.STALE_RING) {
            replies.send(reply(request, answer.type(), answer.payload()));
            return;
          }
          staleRingAnswers.incrementAndGet();
          if (attempt < STALE_RING_ATTEMPTS && !reroutes.isShutdown()) {
            reroutes.schedule(() -> route(request, key, replies, attempt + 1),
                STALE_RING_PAUSE_MS, TimeUnit.MILLISECONDS);
          } else {
            replies.send(refused(request, "frontend " + name + " routes by ring epoch "
                + current.epoch() + " but " + target + " serves epoch " + answer.epoch()
                + ", still after " + attempt + " tries"));
          }
        });
  }

  @Override
  public void close() throws IOException {
    published.close();
    server.close();
    reroutes.shutdownNow();
    backends.close();
  }
}
