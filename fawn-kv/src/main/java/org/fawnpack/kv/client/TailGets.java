package org.fawnpack.kv.client;

import org.fawnpack.kv.wire.ProtocolLimits;
import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets sent straight to the tail of the key's chain, by the ring the client follows in
 * ZooKeeper: one hop instead of two through a front-end, as token-aware Cassandra drivers and
 * HBase clients route. The tail holds only writes its whole chain has, so its answer is what a
 * front-end that missed its cache would have relayed; it is taken only when the tail answers
 * with the value or its absence under the client's own ring epoch (a back-end on another epoch
 * answers STALE_RING and serves nothing).
 *
 * <p>Anything else means the ring is moving or the tail is in trouble, and the get goes through
 * a front-end instead ({@link #get} returns null): no ring yet, the ZooKeeper connection down
 * (a newer epoch may exist unseen, so the client's ring is not trusted), a chain with no member,
 * STALE_RING, a refusal (a fresh copy still without its CHAIN_SYNC), a broken link, no answer
 * within the try's timeout. A tail that did not answer or could not be reached is asked nothing
 * more until the ring changes or {@link #AVOID_NANOS} pass, so a dead tail costs one try, not
 * one per get.
 */
final class TailGets implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TailGets.class);
  /** How long a tail that failed a get is passed over while the ring stays the same. */
  static final long AVOID_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** A tail passed over: until when, and in which epoch it failed. */
  private record Avoided(long untilNanos, long epoch) {}

  private final RingSource rings;
  private final ConnectionPool tails;
  private final Duration tryTimeout;
  private final Map<Member, Avoided> avoided = new ConcurrentHashMap<>();
  private final LongAdder answered = new LongAdder();
  private final LongAdder passedOn = new LongAdder();

  TailGets(RingSource rings, Duration tryTimeout, ClusterSecret secret) {
    this.rings = rings;
    this.tryTimeout = tryTimeout;
    this.tails = new ConnectionPool(tryTimeout, ProtocolLimits.MAX_FRAME_BYTES, secret);
  }

  /**
   * The tail's VALUE or NOT_FOUND for a GET of {@code key} ({@code payload}: the request's), or
   * null when it must go through a front-end. Waits at most the try's timeout, and never past
   * {@code endNanos}.
   */
  Frame get(byte[] key, byte[] payload, long endNanos) {
    Ring ring = rings.current();
    if (ring == null || !rings.upToDate()) {
      return passOn();
    }
    Chain chain = ring.chainForKey(key);
    if (chain.isEmpty()) {
      return passOn();
    }
    Member tail = chain.tail();
    Avoided passedOver = avoided.get(tail);
    if (passedOver != null) {
      if (passedOver.epoch() == ring.epoch() && System.nanoTime() < passedOver.untilNanos()) {
        return passOn();
      }
      avoided.remove(tail, passedOver);
    }
    long waitNanos = Math.min(tryTimeout.toNanos(), endNanos - System.nanoTime());
    if (waitNanos <= 0) {
      return passOn();
    }
    CompletableFuture<Frame> reply = null;
    try {
      Connection c = tails.to(tail);
      reply = c.send(MessageType.DIRECT_GET, ring.epoch(), payload);
      Frame answer = reply.get(waitNanos, TimeUnit.NANOSECONDS);
      if (answer.type() == MessageType.VALUE || answer.type() == MessageType.NOT_FOUND) {
        answered.increment();
        return answer;
      }
      LOG.debug("get at tail {} answered {}: through a front-end", tail,
          MessageType.name(answer.type()));
    } catch (TimeoutException | ExecutionException | IOException e) {
      if (reply != null) {
        reply.cancel(false);
      }
      avoided.put(tail, new Avoided(System.nanoTime() + AVOID_NANOS, ring.epoch()));
      LOG.debug("get at tail {} failed ({}): through a front-end for a while", tail,
          e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the front-end's try sees it and gives up
    }
    return passOn();
  }

  private Frame passOn() {
    passedOn.increment();
    return null;
  }

  /** Gets the tails answered. */
  long answered() {
    return answered.sum();
  }

  /** Gets passed on to a front-end. */
  long passedOn() {
    return passedOn.sum();
  }

  @Override
  public void close() {
    tails.close();
  }
}
