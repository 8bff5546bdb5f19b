package org.fawnpack.kv.client;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.scan.RingSource;
import org.fawnpack.kv.wire.BlockingConnection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.NoReplyException;
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
 * <p>Each get goes on a connection the calling thread borrows and reads its answer itself
 * ({@link BorrowedConnections}): a get wakes no other thread of the client.
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
  private final BorrowedConnections tails;
  private final Duration tryTimeout;
  private final Map<Member, Avoided> avoided = new ConcurrentHashMap<>();
  private final LongAdder answered = new LongAdder();
  private final LongAdder passedOn = new LongAdder();

  TailGets(RingSource rings, Duration tryTimeout, ClusterSecret secret) {
    this.rings = rings;
    this.tryTimeout = tryTimeout;
    this.tails = new BorrowedConnections(tryTimeout, secret);
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
    try {
      Frame answer = call(tail, ring.epoch(), payload, Duration.ofNanos(waitNanos));
      if (answer.type() == MessageType.VALUE || answer.type() == MessageType.NOT_FOUND) {
        answered.increment();
        return answer;
      }
      LOG.debug("get at tail {} answered {}: through a front-end", tail,
          MessageType.name(answer.type()));
    } catch (IOException e) { // a call that fails closes its connection
      avoided.put(tail, new Avoided(System.nanoTime() + AVOID_NANOS, ring.epoch()));
      LOG.debug("get at tail {} failed ({}): through a front-end for a while", tail,
          e.toString());
    }
    return passOn();
  }

  /**
   * DIRECT_GET on a connection this thread borrows, answered on this thread (no hand-off). An
   * idle connection the tail closed meanwhile (it restarted, say) fails before any answer: the
   * get, which changes nothing, goes once more on a new one.
   */
  private Frame call(Member tail, long epoch, byte[] payload, Duration wait) throws IOException {
    BlockingConnection c = tails.idle(tail);
    if (c != null) {
      try {
        Frame answer = c.call(MessageType.DIRECT_GET, epoch, payload, wait);
        tails.giveBack(tail, c);
        return answer;
      } catch (NoReplyException e) {
        throw e; // the tail is alive but silent: not worth a second wait
      } catch (IOException e) {
        LOG.debug("an idle connection to {} had broken ({}); a new one", tail, e.toString());
      }
    }
    c = tails.open(tail);
    Frame answer = c.call(MessageType.DIRECT_GET, epoch, payload, wait);
    tails.giveBack(tail, c);
    return answer;
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
