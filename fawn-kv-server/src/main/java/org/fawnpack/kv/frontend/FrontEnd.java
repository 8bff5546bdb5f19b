package org.fawnpack.kv.frontend;

import static org.fawnpack.kv.wire.MessageType.error;
import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.coord.RingFollower;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.slice.SliceCodec;
import org.fawnpack.kv.slice.WrongSlice;
import org.fawnpack.kv.slice.SliceMap;
import org.fawnpack.kv.wire.AdmittedWrite;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.NotSentException;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.GetRequest;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.Timeouts;
import org.fawnpack.kv.wire.Verb;
import org.fawnpack.kv.wire.WriteRequest;
import org.fawnpack.kv.time.Backoffs;

/**
 * A FAWN-KV front-end: routes each client request in one hop, gets to the tail of the key's
 * chain, puts and deletes to its head, and relays the answer. It takes only the keys of its
 * slice ({@link SliceGate}; others are answered WRONG_SLICE with its slice map), so every
 * read and write of a key passes one front-end, which caches hot keys' committed values
 * ({@link HotCache}). Bad keys and values are answered REFUSED here, before they travel, and so
 * is a request to a chain whose members are all down (a short chain's head refuses new writes
 * itself, and answers retries). A back-end on another ring epoch answers STALE_RING; the
 * request is routed again, a bounded number of times, once the rings agree.
 */
public final class FrontEnd implements Closeable, RingFollower.RingUser {
  /** Reroutes after STALE_RING (see {@link ChainRoutes}). */
  public static final int STALE_RING_ATTEMPTS = ChainRoutes.STALE_RING_ATTEMPTS;
  /** Looks again whether a moving bucket may be served: a handover settles within this. */
  static final int MOVING_ATTEMPTS = 100;
  static final long MOVING_PAUSE_MS = 20;
  /** The cache size that follows the ring: N log2 N entries for N live back-ends. */
  public static final long CACHE_ENTRIES_AUTO = -1;

  private final String name;
  private final ScheduledExecutorService timer;
  /** Set once, before the front-end follows a slice map (so before it fences). */
  private volatile Backoffs backoffs = Backoffs.DEFAULTS;
  private volatile Timeouts timeouts = Timeouts.DEFAULTS;
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(FrontEnd.class);
  private final ChainRoutes routes;
  private final AtomicLong fencedWrites = new AtomicLong();
  private final FrameServer server;
  private final ConnectionPool backends;
  private final HotCache cache;
  private volatile long cacheEntries;
  final SliceGate gate;
  private volatile Ring ring;
  private final FrontEndMetrics metrics;
  private final ClusterSecret secret;
  private Closeable published = () -> { };
  private volatile BackendFencing fencing;

  private FrontEnd(String name, InetSocketAddress bind, ClusterSecret secret, long cacheEntries,
      Lease lease) throws IOException {
    if (cacheEntries < CACHE_ENTRIES_AUTO) {
      throw new IllegalArgumentException("cache entries are -1 (N log N) or at least 0: "
          + cacheEntries);
    }
    this.name = name;
    this.cacheEntries = cacheEntries;
    this.cache = new HotCache(Math.max(0, cacheEntries));
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-frontend-timer-" + name);
      t.setDaemon(true);
      return t;
    });
    this.secret = secret;
    this.gate = new SliceGate(name, cache, timer, lease);
    this.metrics = new FrontEndMetrics(name, this::epoch, this::staleRingAnswers, cache, gate);
    // What runs on a back-end's reply (cache fill, the reply to the client) never blocks.
    this.backends = new ConnectionPool(Duration.ofSeconds(5), ProtocolLimits.MAX_FRAME_BYTES,
        secret, Connection.ReplyThread.EVENT_LOOP);
    this.routes = new ChainRoutes(name, backends, () -> ring, timer);
    // Gets and writes only look at the cache and the slice map and send on: never blocking.
    this.server = new FrameServer("frontend " + name, bind, ProtocolLimits.MAX_FRAME_BYTES,
        secret, this::handle).handleOnEventLoop(MessageType.GET, MessageType.PUT,
        MessageType.DELETE);
  }

  /**
   * The only front-end of its cluster: it serves every key, with a cache of N log N entries.
   * Listens on {@code bind} (port 0: any) at once, for clients that prove {@code secret};
   * routes once it has a ring.
   */
  public static FrontEnd open(String name, InetSocketAddress bind, ClusterSecret secret)
      throws IOException {
    FrontEnd frontEnd = start(name, bind, secret, CACHE_ENTRIES_AUTO, Lease.always());
    frontEnd.gate.apply(SliceMap.first(new java.security.SecureRandom().nextLong(),
        java.util.List.of(frontEnd.endpoint())));
    frontEnd.gate.open();
    return frontEnd;
  }

  /**
   * One of several front-ends: it serves the slices ZooKeeper gives it ({@link SliceFollower})
   * and takes no request before it has its first slice map and a lease on it; {@code
   * cacheEntries}: at most so many cached keys, 0 for none, {@link #CACHE_ENTRIES_AUTO} for
   * N log N; it fences the back-ends pausing by {@code backoffs}' cluster pauses, waiting for
   * their answers as {@code timeouts} say.
   */
  public static FrontEnd open(String name, InetSocketAddress bind, ClusterSecret secret,
      long cacheEntries, Backoffs backoffs, Timeouts timeouts) throws IOException {
    FrontEnd frontEnd = start(name, bind, secret, cacheEntries,
        Lease.renewable(System::nanoTime));
    frontEnd.backoffs = java.util.Objects.requireNonNull(backoffs, "backoffs");
    frontEnd.timeouts = java.util.Objects.requireNonNull(timeouts, "timeouts");
    return frontEnd;
  }

  /** The pauses its retries use. */
  Backoffs backoffs() {
    return backoffs;
  }

  private static FrontEnd start(String name, InetSocketAddress bind, ClusterSecret secret,
      long cacheEntries, Lease lease) throws IOException {
    FrontEnd frontEnd = new FrontEnd(name, bind, secret, cacheEntries, lease);
    frontEnd.server.start();
    frontEnd.published = org.fawnpack.kv.metrics.Jmx.register("FrontEnd-" + name,
        frontEnd.metrics);
    return frontEnd;
  }

  public InetSocketAddress address() {
    return server.address();
  }

  /** Its name and where clients reach it, as slice maps name it. */
  public SliceMap.Endpoint endpoint() {
    InetSocketAddress at = address();
    String host = at.getHostString();
    if (at.getAddress() != null && at.getAddress().isAnyLocalAddress()) {
      try { // listening on every interface: clients reach it by the host's name
        host = java.net.InetAddress.getLocalHost().getCanonicalHostName();
      } catch (java.net.UnknownHostException e) {
        throw new IllegalStateException("front-end " + name + " listens on every interface but"
            + " its host has no name to give clients: " + e.getMessage(), e);
      }
    }
    return new SliceMap.Endpoint(name, host, at.getPort());
  }

  /** Routes by {@code next} from now on; an epoch not newer than the current one is ignored. */
  @Override
  public void useRing(Ring next) {
    synchronized (this) {
      if (ring != null && next.epoch() <= ring.epoch()) {
        return;
      }
      ring = next;
      if (cacheEntries == CACHE_ENTRIES_AUTO) {
        cache.resize(autoCacheEntries(next));
      }
    }
    routes.ringReached(next.epoch()); // unlocked: requests waiting for it are sent again
  }

  /** The paper's bound for a cache that evens out load: N log2 N entries, at least N. */
  static long autoCacheEntries(Ring ring) {
    long n = ring.members().stream().filter(m -> !ring.isDown(m.id())).count();
    return n <= 1 ? n : Math.max(n, (long) Math.ceil(n * Math.log(n) / Math.log(2)));
  }

  /** How many STALE_RING answers back-ends have given this front-end since it started. */
  public long staleRingAnswers() {
    return routes.staleRingAnswers();
  }

  /** The epoch it routes by, or -1 before it has a ring. */
  public long epoch() {
    Ring current = ring;
    return current == null ? -1 : current.epoch();
  }

  /** Its figures, as its JMX bean shows them. */
  public FrontEndMetricsMXBean metrics() {
    return metrics;
  }

  /**
   * Caches at most {@code entries} keys from now on (0: none), no longer following the ring's
   * size; {@link #CACHE_ENTRIES_AUTO} follows it again.
   */
  public synchronized void resizeCache(long entries) {
    if (entries < CACHE_ENTRIES_AUTO) {
      throw new IllegalArgumentException("cache entries are -1 (N log N) or at least 0: "
          + entries);
    }
    cacheEntries = entries;
    Ring current = ring;
    cache.resize(entries >= 0 ? entries : current == null ? 0 : autoCacheEntries(current));
  }

  /**
   * From now on, before it serves a key another front-end may have served, it fences every
   * back-end at its map's slice epoch: the ring's members and those {@code registered} names.
   */
  void fenceBackends(BackendFencing.Registered registered) {
    BackendFencing f = new BackendFencing(name, secret, () -> ring, registered, gate::fenced,
        backoffs.cluster(), timeouts);
    fencing = f;
    gate.fenceWith(f::fence);
  }

  /** Its slice map, or null before the first. */
  public SliceMap sliceMap() {
    return gate.map();
  }

  /** Whether keys of its slice wait for the back-ends to be fenced (it refuses them). */
  public boolean awaitsFence() {
    return gate.awaitsFence();
  }

  private void handle(Frame request, FrameServer.Replies clientReplies) throws IOException {
    FrameServer.Replies replies = metrics.counting(request, clientReplies);
    byte type = request.type();
    if (type == MessageType.STATS) {
      request.fields().end();
      replies.send(reply(request, MessageType.VALUE,
          FrontEndStats.of(metrics, gate.bucketsServed()).encode()));
      return;
    }
    if (type == MessageType.BULK_GATE) {
      // A bulk load committed: values cached before it may be overwritten by it. The loaded
      // arcs' tails answer no get until it is visible everywhere, so nothing older comes back.
      cache.forgetAll();
      replies.send(reply(request, MessageType.OK, null));
      return;
    }
    if (type == MessageType.SLICES) {
      request.fields().end();
      SliceMap map = gate.map();
      replies.send(map == null ? refused(request, "front-end " + name + " has no slice map yet")
          : reply(request, MessageType.SLICE_MAP, SliceCodec.encode(map)));
      return;
    }
    Ring current = ring;
    if (current == null) {
      replies.send(refused(request, "frontend " + name + " has no ring yet"));
      return;
    }
    if (type != MessageType.GET && type != MessageType.PUT && type != MessageType.DELETE) {
      replies.send(refused(request, "frontend " + name + " serves "
          + Verb.requestsOf(Verb.Node.FRONTEND) + ", not " + Verb.nameOf(type)));
      return;
    }
    byte[] key;
    String problem;
    if (type == MessageType.GET) {
      GetRequest get = GetRequest.decode(request);
      key = get.key();
      problem = get.problem();
    } else {
      WriteRequest write = WriteRequest.decode(request); // passed on as its bytes came
      key = write.key();
      problem = write.problem();
    }
    if (problem != null) {
      replies.send(refused(request, problem));
      return;
    }
    admit(request, key, replies, 1);
  }

  /**
   * Serves the request if its key is in this front-end's slice now; else says who does. A key
   * whose bucket is moving is looked at again when the gate changes (a new slice map, the
   * back-ends fenced), at most {@link #MOVING_PAUSE_MS} later, {@link #MOVING_ATTEMPTS} times.
   */
  private void admit(Frame request, byte[] key, FrameServer.Replies replies, int attempt) {
    CompletableFuture<Void> gateChanged = gate.nextChange(); // before: a change after counts
    SliceGate.Decision d = gate.admit(key, request, replies);
    switch (d.verdict()) {
      case SERVE -> serve(request, key, d, replies, attempt);
      case WRONG_SLICE -> replies.send(wrongSlice(request, d.reason(), d.map()));
      case NOT_READY -> replies.send(refused(request, d.reason()));
      case MOVING -> {
        if (attempt >= MOVING_ATTEMPTS || !ChainRoutes.resumeWhen(gateChanged,
            MOVING_PAUSE_MS, timer, () -> admit(request, key, replies, attempt + 1))) {
          replies.send(refused(request, d.reason() + ", still after " + attempt + " looks"));
        }
      }
      default -> throw new IllegalStateException("unknown verdict " + d.verdict());
    }
  }

  private static Frame wrongSlice(Frame request, String why, SliceMap map) {
    return reply(request, MessageType.WRONG_SLICE, new WrongSlice(why, map).encode());
  }

  /**
   * A get from the cache (the gate looked it up) or the tail (whose answer may fill it); a
   * write past the cache, to the head with the slice epoch it was admitted under. A write a
   * fenced head refused (its admission is older than the head's fence) is admitted again by
   * the map of the moment: this front-end may have lost the key meanwhile.
   */
  private void serve(Frame request, byte[] key, SliceGate.Decision decision,
      FrameServer.Replies clientReplies, int attempt) {
    SliceGate.Admission admission = decision.admission();
    HotCache.Key cacheKey = HotCache.Key.of(key);
    if (request.type() == MessageType.GET) {
      HotCache.Entry hit = decision.hit();
      if (hit != null) {
        admission.send(reply(request, hit.type(), hit.payload()));
        return;
      }
      long stamp = cache.stampBeforeGet(cacheKey);
      routes.route(request, request.payload(), key, answer -> {
        if (answer.type() == MessageType.VALUE || answer.type() == MessageType.NOT_FOUND) {
          gate.answered(cacheKey, stamp, new HotCache.Entry(answer.type(), answer.payload()));
        }
        admission.send(answer);
      });
    } else {
      cache.writeStarting(cacheKey);
      byte[] toHead = AdmittedWrite.relay(request.payload(), admission.epoch());
      routes.route(request, toHead, key, answer -> {
        cache.writeEnded(cacheKey, HotCache.WriteOutcome.of(answer.type()));
        if (answer.type() == MessageType.FENCED && attempt < MOVING_ATTEMPTS
            && admission.release()) {
          fencedWrites.incrementAndGet();
          later(() -> admit(request, key, clientReplies, attempt + 1));
        } else if (answer.type() == MessageType.FENCED) {
          admission.send(refused(request, MessageType.messageOf(answer)));
        } else {
          admission.send(answer);
        }
      });
    }
  }

  private void later(Runnable task) {
    try {
      timer.schedule(task, MOVING_PAUSE_MS, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("front-end {} closing: a request is not admitted again", name);
    }
  }

  /** How many writes a fenced head refused and this front-end admitted again. */
  public long fencedWrites() {
    return fencedWrites.get();
  }

  @Override
  public void close() throws IOException {
    published.close();
    server.close();
    timer.shutdownNow();
    BackendFencing f = fencing;
    if (f != null) {
      f.close();
    }
    backends.close();
  }
}
