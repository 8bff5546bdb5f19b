package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.backend.Backend;
import org.fawnpack.kv.backend.EngineKeys;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.NotSentException;
import org.fawnpack.kv.wire.WriteId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A FAWN-KV client: get, put and delete through a front-end, each with a deadline. Keys are
 * 1 to 65,528 bytes and are stored whole; values up to 16 MiB. Thread-safe: requests from many
 * threads share one pipelined connection.
 *
 * <pre>{@code
 * try (FawnKvClient kv = FawnKvClient.connect(frontEnd, Duration.ofSeconds(5), secret)) {
 *   kv.put(key, value);          // returns once the chain's tail has it durably
 *   byte[] v = kv.get(key);      // null when absent
 *   boolean had = kv.delete(key);
 * }
 * }</pre>
 *
 * <p>Given several front-ends, it uses one and moves to the next when that one cannot be
 * reached or its connection breaks. A request that failed on the way (a broken link, an
 * ERROR, a refusal such as a chain short while a member copies) is sent again, up to
 * {@link #MAX_ATTEMPTS} times within its deadline, after a pause that doubles from
 * {@link #FIRST_PAUSE_MS}. Puts and deletes carry a {@link WriteId} (this client's random id
 * and a number per call) that stays the same on every try, so a chain that applied the first
 * try answers a retry for it instead of applying it again. When every try failed, the error
 * says {@link KvException#refused()} only if no try can have taken effect.
 */
public final class FawnKvClient implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FawnKvClient.class);

  /** Tries per request, the first included. */
  public static final int MAX_ATTEMPTS = 6;
  /** The pause before the first retry; it doubles with each further one. */
  public static final long FIRST_PAUSE_MS = 50;

  private final List<InetSocketAddress> frontEnds;
  private final long writer = writerId();
  private final java.util.concurrent.atomic.AtomicLong requests =
      new java.util.concurrent.atomic.AtomicLong();
  private final Duration deadline;
  private final ClusterSecret secret;
  private Connection connection; // guarded by this
  private int current; // guarded by this: the front-end in use, or to try first

  private FawnKvClient(List<InetSocketAddress> frontEnds, Duration deadline,
      ClusterSecret secret) {
    this.frontEnds = List.copyOf(frontEnds);
    this.deadline = deadline;
    this.secret = secret;
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
   * Connects to the first of {@code frontEnds} that answers, proving the cluster's
   * {@code secret}; every request waits at most {@code deadline}.
   *
   * @throws KvException (refused) when none can be reached
   */
  public static FawnKvClient connect(List<InetSocketAddress> frontEnds, Duration deadline,
      ClusterSecret secret) throws IOException {
    if (frontEnds.isEmpty()) {
      throw new IllegalArgumentException("no front-end given");
    }
    FawnKvClient client = new FawnKvClient(frontEnds, deadline, secret);
    client.connection();
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

  /** The open connection, or one to the next front-end that answers. */
  private synchronized Connection connection() throws KvException {
    if (connection != null && !connection.isBroken()) {
      return connection;
    }
    IOException last = null;
    for (int tried = 0; tried < frontEnds.size(); tried++) {
      try {
        connection = Connection.open(frontEnds.get(current), deadline, Backend.MAX_FRAME_BYTES,
            secret);
        return connection;
      } catch (IOException e) {
        LOG.debug("front-end {} not reachable: {}", frontEnds.get(current), e.getMessage());
        last = e;
        current = (current + 1) % frontEnds.size();
      }
    }
    throw new KvException("no front-end of " + frontEnds + " can be reached; the last said: "
        + last.getMessage(), true);
  }

  /** {@code broken} failed: the next request goes to the next front-end. */
  private synchronized void moveOn(Connection broken) {
    if (connection == broken) {
      connection = null;
      current = (current + 1) % frontEnds.size();
    }
  }

  /** The value stored under {@code key}, or null. */
  public byte[] get(byte[] key) throws IOException {
    Frame answer = call(MessageType.GET, new Frame.Payload().addBytes(checkKey(key)));
    if (answer.type() == MessageType.NOT_FOUND) {
      return null;
    }
    Frame.Fields fields = expect(answer, MessageType.VALUE).fields();
    byte[] value = fields.nextBytes(Backend.MAX_VALUE_BYTES, "the value");
    fields.end();
    return value;
  }

  /** Stores {@code value} under {@code key}; returns once every member of its chain has it. */
  public void put(byte[] key, byte[] value) throws IOException {
    if (value.length > Backend.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException("the value has " + value.length + " bytes, more than "
          + Backend.MAX_VALUE_BYTES);
    }
    expect(call(MessageType.PUT, nextWriteId().addTo(new Frame.Payload()
        .addBytes(checkKey(key)).addBytes(value))), MessageType.OK);
  }

  /** Removes {@code key}; whether it was there. */
  public boolean delete(byte[] key) throws IOException {
    Frame answer = call(MessageType.DELETE, nextWriteId().addTo(new Frame.Payload()
        .addBytes(checkKey(key))));
    return answer.type() != MessageType.NOT_FOUND && expect(answer, MessageType.OK) != null;
  }

  private WriteId nextWriteId() {
    return new WriteId(writer, requests.incrementAndGet());
  }

  /**
   * Sends the request until it is answered other than ERROR or REFUSED, or the tries or the
   * deadline run out; then the last answer (an ERROR when a try may have taken effect).
   */
  private Frame call(byte type, Frame.Payload payload) throws IOException {
    byte[] bytes = payload.toBytes();
    long end = System.nanoTime() + deadline.toNanos();
    boolean mayHaveApplied = false; // some try of a write may have taken effect
    String lastProblem = null;
    for (int attempt = 1; ; attempt++) {
      Frame answer = null;
      Connection c = connection();
      try {
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()));
        answer = c.call(type, 0, bytes, Duration.ofMillis(left));
        if (answer.type() != MessageType.ERROR && answer.type() != MessageType.REFUSED) {
          return answer;
        }
        mayHaveApplied |= answer.type() == MessageType.ERROR;
        lastProblem = MessageType.messageOf(answer);
      } catch (IOException e) {
        if (c.isBroken()) {
          moveOn(c); // the next try goes to the next front-end
        }
        mayHaveApplied |= !(e instanceof NotSentException);
        lastProblem = e.getMessage();
      }
      long pauseMs = FIRST_PAUSE_MS << (attempt - 1);
      if (attempt >= MAX_ATTEMPTS || System.nanoTime() + pauseMs * 1_000_000 >= end) {
        String message = MessageType.name(type) + " failed after " + attempt + " tries: "
            + lastProblem;
        throw new KvException(message, type == MessageType.GET || !mayHaveApplied);
      }
      LOG.debug("{} again in {} ms after: {}", MessageType.name(type), pauseMs, lastProblem);
      pause(pauseMs);
    }
  }

  private static void pause(long ms) throws KvException {
    try {
      Thread.sleep(ms); // a retry's back-off: the cluster needs a moment (a copy, a new epoch)
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KvException("interrupted before a retry", true);
    }
  }

  private static Frame expect(Frame answer, byte type) throws IOException {
    if (answer.type() == MessageType.ERROR || answer.type() == MessageType.REFUSED) {
      throw new KvException(MessageType.messageOf(answer),
          answer.type() == MessageType.REFUSED);
    }
    if (answer.type() != type) {
      throw new KvException("expected " + MessageType.name(type) + ", the front-end answered "
          + MessageType.name(answer.type()), false);
    }
    return answer;
  }

  private static byte[] checkKey(byte[] key) {
    String problem = EngineKeys.problemWith(key);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return key;
  }

  @Override
  public synchronized void close() {
    if (connection != null) {
      connection.close();
    }
  }
}
