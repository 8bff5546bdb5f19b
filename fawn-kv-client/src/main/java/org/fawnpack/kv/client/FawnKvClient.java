package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.yetus.audience.InterfaceAudience;
import org.apache.yetus.audience.InterfaceStability;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.GetRequest;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.WriteId;
import org.fawnpack.kv.wire.WriteRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A FAWN-KV client: get, put and delete through a front-end, each with a deadline. Keys are
 * 1 to 65,528 bytes and are stored whole; values up to 16 MiB. Thread-safe: requests from many
 * threads share one pipelined connection per front-end.
 *
 * <pre>{@code
 * try (FawnKvClient kv = FawnKvClient.connect(frontEnd, Duration.ofSeconds(5), secret)) {
 *   kv.put(key, value);          // returns once the chain's tail has it durably
 *   byte[] v = kv.get(key);      // null when absent
 *   boolean had = kv.delete(key);
 *   kv.putAll(keys, values);     // pipelined on one connection
 *   List<byte[]> found = kv.getAll(keys);
 * }
 * }</pre>
 *
 * <p>Each key is sent to the front-end that serves it, by the cluster's slice map, which it
 * asks of the front-ends it is given (any one is enough) and follows when a front-end answers
 * WRONG_SLICE. A request that failed on the way (a broken link, an
 * ERROR, a refusal such as a chain short while a member copies) is sent again, up to
 * {@link #MAX_ATTEMPTS} times within its deadline, after a pause that doubles from
 * {@link #FIRST_PAUSE_MS}. Puts and deletes carry a {@link WriteId} (this client's random id
 * and a number per call) that stays the same on every try, so a chain that applied the first
 * try answers a retry for it instead of applying it again. When every try failed, the error
 * says {@link KvException#refused()} only if no try can have taken effect.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public final class FawnKvClient implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FawnKvClient.class);

  /** Tries per request, the first included. */
  public static final int MAX_ATTEMPTS = 6;
  /**
   * The pause before the first retry unless the client was built with others ({@link
   * FawnKvClientBuilder#retryPauses}); it doubles with each further one.
   */
  public static final long FIRST_PAUSE_MS = Backoff.CLIENT_REQUEST.firstPauseMs();

  /**
   * How long one try waits for its answer unless told otherwise: longer than a front-end
   * holds a request while a chain or a slice settles (about 2 s), short enough that a frozen
   * front-end costs a try and not the whole deadline.
   */
  public static final Duration DEFAULT_TRY_TIMEOUT = Duration.ofSeconds(3);

  private final SliceRoutes routes;
  private final long writer = writerId();
  private final java.util.concurrent.atomic.AtomicLong requests =
      new java.util.concurrent.atomic.AtomicLong();
  private final Duration deadline;
  private final Duration tryTimeout;
  private final BatchCall batch;
  private final RetriedCall calls;
  /** Null: every get goes through a front-end. */
  private final TailGets tailGets;
  /** The ring this client follows on its own ZooKeeper session, closed with it; or null. */
  private FollowedRing ownedRing;

  private FawnKvClient(List<InetSocketAddress> frontEnds, Duration deadline,
      Duration tryTimeout, ClusterSecret secret, RingSource rings, Backoff pauses) {
    this.routes = new SliceRoutes(frontEnds, tryTimeout, secret);
    this.deadline = deadline;
    this.tryTimeout = tryTimeout;
    this.batch = new BatchCall(routes, deadline, tryTimeout, pauses);
    this.calls = new RetriedCall(routes, tryTimeout, pauses);
    this.tailGets = rings == null ? null : new TailGets(rings, tryTimeout, secret);
  }

  /**
   * The settings of a client of the front-ends at {@code frontEnds} (the first that answers
   * gives the slice map) proving the cluster's {@code secret}: its deadlines, its pauses
   * between tries and whether it reads from the tails, each with a default; {@link
   * FawnKvClientBuilder#connect} makes it.
   */
  public static FawnKvClientBuilder builder(List<InetSocketAddress> frontEnds,
      ClusterSecret secret) {
    return new FawnKvClientBuilder(frontEnds, secret);
  }

  /**
   * Connects to the front-end at {@code frontEnd}, proving the cluster's {@code secret}; every
   * request waits at most {@code deadline}.
   */
  public static FawnKvClient connect(InetSocketAddress frontEnd, Duration deadline,
      ClusterSecret secret) throws IOException {
    return connect(List.of(frontEnd), deadline, secret);
  }

  /**
   * Asks the first of {@code frontEnds} that answers for the cluster's slice map, proving the
   * cluster's {@code secret}; every request waits at most {@code deadline}, each try of it at
   * most {@link #DEFAULT_TRY_TIMEOUT} (or the deadline, when shorter).
   *
   * @throws KvException (refused) when none can be reached
   */
  public static FawnKvClient connect(List<InetSocketAddress> frontEnds, Duration deadline,
      ClusterSecret secret) throws IOException {
    return connect(frontEnds, deadline, DEFAULT_TRY_TIMEOUT, secret);
  }

  /**
   * As {@link #connect(List, Duration, ClusterSecret)}, each try waiting at most {@code
   * tryTimeout} (capped at the deadline): a front-end that lets a try go unanswered that long
   * is asked no more for the map until it answers again, and the next try goes by a map asked
   * of the others, so requests move to a frozen front-end's successor once its slice moved.
   *
   * @throws IllegalArgumentException when a duration is not positive or no front-end is given
   * @throws KvException (refused) when none can be reached
   */
  public static FawnKvClient connect(List<InetSocketAddress> frontEnds, Duration deadline,
      Duration tryTimeout, ClusterSecret secret) throws IOException {
    return open(frontEnds, deadline, tryTimeout, secret, null, Backoff.CLIENT_REQUEST);
  }

  /**
   * As {@link #connect(List, Duration, Duration, ClusterSecret)}, but {@link #get} goes straight
   * to the tail of the key's chain by the ring {@code rings} follows (one hop instead of two;
   * see {@link TailGets}), and through a front-end whenever the tail cannot answer under that
   * ring (the ring moving, its ZooKeeper connection down, the tail failing). Puts, deletes and
   * {@link #getAll} go through the front-ends as before. The client needs to reach the
   * back-ends; {@code rings} stays the caller's to close, after this client.
   */
  @InterfaceAudience.LimitedPrivate({"FAWN-KV tests", "fawn-benchmarks"})
  public static FawnKvClient connectReadingTails(List<InetSocketAddress> frontEnds,
      Duration deadline, Duration tryTimeout, ClusterSecret secret, RingSource rings)
      throws IOException {
    return open(frontEnds, deadline, tryTimeout, secret,
        java.util.Objects.requireNonNull(rings, "a ring source"), Backoff.CLIENT_REQUEST);
  }

  /**
   * As {@link #connect(List, Duration, Duration, ClusterSecret)}, but {@link #get} goes straight
   * to the tail of the key's chain (one hop instead of two), by the ring of {@code cluster}
   * ({@code fawn.kv.cluster}) that this client follows in ZooKeeper at {@code zooKeeperQuorum}
   * on a session of its own, closed with it. A get goes through a front-end instead whenever
   * the tail cannot answer under the ring the client holds (the ring moving, the ZooKeeper
   * connection down, the tail failing), so answers stay as fresh as through a front-end. Puts,
   * deletes and {@link #getAll} go through the front-ends. The client must reach the back-ends.
   *
   * @throws IOException naming the quorum when ZooKeeper cannot be reached within 30 s, or the
   *     cluster when ZooKeeper has no such cluster
   */
  public static FawnKvClient connectReadingTails(List<InetSocketAddress> frontEnds,
      Duration deadline, Duration tryTimeout, ClusterSecret secret, String zooKeeperQuorum,
      String cluster) throws IOException {
    return connectReadingTails(frontEnds, deadline, tryTimeout, secret, zooKeeperQuorum,
        cluster, Backoff.CLIENT_REQUEST);
  }

  /** As the builder's {@code readingTails(quorum, cluster)} asks: a ring of its own. */
  static FawnKvClient connectReadingTails(List<InetSocketAddress> frontEnds,
      Duration deadline, Duration tryTimeout, ClusterSecret secret, String zooKeeperQuorum,
      String cluster, Backoff pauses) throws IOException {
    FollowedRing ring = FollowedRing.open(zooKeeperQuorum, cluster);
    try {
      FawnKvClient client = open(frontEnds, deadline, tryTimeout, secret, ring, pauses);
      client.ownedRing = ring;
      return client;
    } catch (IOException | RuntimeException e) {
      ring.close();
      throw e;
    }
  }

  /** Null {@code rings}: every get goes through a front-end. */
  static FawnKvClient open(List<InetSocketAddress> frontEnds, Duration deadline,
      Duration tryTimeout, ClusterSecret secret, RingSource rings, Backoff pauses)
      throws IOException {
    if (frontEnds.isEmpty()) {
      throw new IllegalArgumentException("no front-end given");
    }
    if (deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("a request's deadline must be positive: " + deadline);
    }
    if (tryTimeout.isNegative() || tryTimeout.isZero()) {
      throw new IllegalArgumentException("a try's timeout must be positive: " + tryTimeout);
    }
    Duration perTry = tryTimeout.compareTo(deadline) < 0 ? tryTimeout : deadline;
    FawnKvClient client = new FawnKvClient(frontEnds, deadline, perTry, secret, rings,
        java.util.Objects.requireNonNull(pauses, "pauses"));
    try {
      client.routes.refresh();
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
    return client;
  }

  /** A random id for this client's writes, never 0 (which marks a write with no id). */
  private static long writerId() {
    long id;
    do {
      id = new java.security.SecureRandom().nextLong();
    } while (id == 0);
    return id;
  }

  /** The value stored under {@code key}, or null. */
  public byte[] get(byte[] key) throws IOException {
    TryPayload payload = TryPayload.get(checkKey(key));
    long end = System.nanoTime() + deadline.toNanos();
    if (tailGets != null) {
      Frame answer = tailGets.get(key, payload.forTry(false), end);
      if (answer != null) {
        return valueOf(answer);
      }
    }
    return valueOf(call(MessageType.GET, key, payload, end));
  }

  /**
   * Gets answered straight by a tail, and gets that went through a front-end instead, since
   * this client was made ({0, 0} unless made by {@link #connectReadingTails}).
   */
  @InterfaceAudience.LimitedPrivate({"FAWN-KV tests", "fawn-benchmarks"})
  public long[] tailGetCounts() {
    return tailGets == null ? new long[2] : new long[] {tailGets.answered(),
        tailGets.passedOn()};
  }

  /**
   * The values stored under {@code keys}, in their order (null where absent). The requests go
   * out together (pipelined on one connection per front-end) and each is retried as
   * {@link #get} would.
   *
   * @throws KvException naming how many failed and the first failure
   */
  public List<byte[]> getAll(List<byte[]> keys) throws IOException {
    List<TryPayload> payloads = new ArrayList<>(keys.size());
    for (byte[] key : keys) {
      payloads.add(TryPayload.get(checkKey(key)));
    }
    List<byte[]> values = new ArrayList<>(keys.size());
    for (Frame answer : batch.call(MessageType.GET, keys, payloads)) {
      values.add(valueOf(answer));
    }
    return values;
  }

  /**
   * Stores {@code values.get(i)} under {@code keys.get(i)} for every i. The writes go out
   * together (pipelined on one connection per front-end); each is retried as {@link #put} would, under its
   * own write id, so none is applied twice. When some fail, the others still took effect.
   *
   * @throws KvException naming how many failed and the first failure; refused only when no
   *     failed write can have taken effect
   */
  public void putAll(List<byte[]> keys, List<byte[]> values) throws IOException {
    if (keys.size() != values.size()) {
      throw new IllegalArgumentException(keys.size() + " keys but " + values.size()
          + " values");
    }
    List<TryPayload> payloads = new ArrayList<>(keys.size());
    for (int i = 0; i < keys.size(); i++) {
      payloads.add(TryPayload.write(WriteRequest.put(checkKey(keys.get(i)),
          checkValue(values.get(i)), nextWriteId())));
    }
    for (Frame answer : batch.call(MessageType.PUT, keys, payloads)) {
      expect(answer, MessageType.OK);
    }
  }

  private static byte[] valueOf(Frame answer) throws IOException {
    if (answer.type() == MessageType.NOT_FOUND) {
      return null;
    }
    return GetRequest.valueOf(expect(answer, MessageType.VALUE));
  }

  /** Stores {@code value} under {@code key}; returns once every member of its chain has it. */
  public void put(byte[] key, byte[] value) throws IOException {
    expect(call(MessageType.PUT, key, TryPayload.write(WriteRequest.put(checkKey(key),
        checkValue(value), nextWriteId()))), MessageType.OK);
  }

  /** Removes {@code key}; whether it was there. */
  public boolean delete(byte[] key) throws IOException {
    Frame answer = call(MessageType.DELETE, key,
        TryPayload.write(WriteRequest.delete(checkKey(key), nextWriteId())));
    return answer.type() != MessageType.NOT_FOUND && expect(answer, MessageType.OK) != null;
  }

  private WriteId nextWriteId() {
    return new WriteId(writer, requests.incrementAndGet());
  }

  /**
   * Sends the request until it is answered other than ERROR or REFUSED, or the tries or the
   * deadline run out; then the last answer (an ERROR when a try may have taken effect).
   */
  private Frame call(byte type, byte[] key, TryPayload payload) throws IOException {
    return call(type, key, payload, System.nanoTime() + deadline.toNanos());
  }

  /** As {@link #call(byte, byte[], TryPayload)}, by {@code end} (System.nanoTime()). */
  private Frame call(byte type, byte[] key, TryPayload payload, long end) throws IOException {
    return calls.call(type, key, payload, end);
  }

  static void pause(long ms) throws KvException {
    try {
      Thread.sleep(ms); // a retry's back-off: the cluster needs a moment (a copy, a new epoch)
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvException("interrupted before a retry", true);
    }
  }

  private static Frame expect(Frame answer, byte type) throws IOException {
    if (answer.type() == MessageType.ERROR || answer.type() == MessageType.REFUSED
        || answer.type() == MessageType.LOST) {
      throw new KvException(MessageType.messageOf(answer),
          answer.type() != MessageType.ERROR);
    }
    if (answer.type() != type) {
      throw new KvException("expected " + MessageType.name(type) + ", the front-end answered "
          + MessageType.name(answer.type()), false);
    }
    return answer;
  }

  private static byte[] checkValue(byte[] value) {
    if (value.length > ProtocolLimits.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("the value has " + value.length + " bytes, more than "
          + ProtocolLimits.MAX_VALUE_BYTES);
    }
    return value;
  }

  private static byte[] checkKey(byte[] key) {
    String problem = ProtocolLimits.keyProblem(key);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return key;
  }

  @Override
  public void close() {
    if (tailGets != null) {
      tailGets.close();
    }
    routes.close();
    if (ownedRing != null) {
      try {
        ownedRing.close();
      } catch (IOException e) {
        LOG.warn("ZooKeeper session of the client's ring not closed cleanly: {}",
            e.getMessage());
      }
    }
  }
}
