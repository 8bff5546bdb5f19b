package org.fawnpack.kv.frontend;

import static org.fawnpack.kv.wire.MessageType.error;
import static org.fawnpack.kv.wire.MessageType.refused;
import static org.fawnpack.kv.wire.MessageType.reply;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.fawnpack.kv.ring.Chain;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.time.EpochWaits;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.FrameServer;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.NotSentException;

/**
 * A front-end's way to the chains: a get to its key's tail, a write to the head, by the ring
 * it holds. A back-end on another ring epoch answers STALE_RING and took nothing; the request
 * goes again, at most {@link #STALE_RING_ATTEMPTS} times: as soon as this front-end's ring
 * reaches the back-end's epoch when it is the one behind (its watch delivers the ring within
 * milliseconds), else after {@link #STALE_RING_PAUSE_MS} for the back-end to catch up.
 */
final class ChainRoutes {
  /** Tries after STALE_RING: a watch delivers a new epoch to every node well within these. */
  static final int STALE_RING_ATTEMPTS = 40;
  static final long STALE_RING_PAUSE_MS = 50;

  private final String name;
  private final ConnectionPool backends;
  private final Supplier<Ring> ring;
  private final ScheduledExecutorService timer;
  private final AtomicLong staleRingAnswers = new AtomicLong();
  private final EpochWaits ringEpochs = new EpochWaits();

  ChainRoutes(String name, ConnectionPool backends, Supplier<Ring> ring,
      ScheduledExecutorService timer) {
    this.name = name;
    this.backends = backends;
    this.ring = ring;
    this.timer = timer;
  }

  /** The front-end routes by {@code epoch} from now on: requests waiting for it go again. */
  void ringReached(long epoch) {
    ringEpochs.reached(epoch);
  }

  long staleRingAnswers() {
    return staleRingAnswers.get();
  }

  /** Sends {@code payload} (the request's, or a write's with its admission) to the chain. */
  void route(Frame request, byte[] payload, byte[] key, FrameServer.Replies replies) {
    route(request, payload, key, replies, 1);
  }

  private void route(Frame request, byte[] payload, byte[] key, FrameServer.Replies replies,
      int attempt) {
    Ring current = ring.get();
    Chain chain = current.chainForKey(key);
    boolean get = request.type() == MessageType.GET;
    // A short chain's head still answers retries of writes it committed; it refuses new ones.
    if (chain.isEmpty()) {
      replies.send(current.orphans().lost().contains(chain.range().endInclusive())
          ? MessageType.lost(request, "arc " + chain.range() + " is lost (an operator"
              + " declared every copy gone; ring epoch " + current.epoch() + ")")
          : refused(request, "every member of the chain of " + chain.range()
              + " is down in ring epoch " + current.epoch()));
      return;
    }
    Member target = get ? chain.tail() : chain.head();
    backends.to(target).send(request.type(), current.epoch(), payload).whenComplete(
        (answer, failure) -> {
          if (failure instanceof NotSentException) { // no connection: certainly not applied
            replies.send(refused(request, "frontend " + name + ": " + failure.getMessage()));
            return;
          }
          if (failure != null) {
            replies.send(error(request, "frontend " + name + ": " + failure.getMessage()));
            return;
          }
          if (answer.type() != MessageType.STALE_RING) {
            replies.send(reply(request, answer.type(), answer.payload()));
            return;
          }
          staleRingAnswers.incrementAndGet();
          CompletableFuture<Long> ringCaughtUp = answer.epoch() > current.epoch()
              ? ringEpochs.atLeast(answer.epoch()) : new CompletableFuture<>();
          if (attempt >= STALE_RING_ATTEMPTS || !resumeWhen(ringCaughtUp, STALE_RING_PAUSE_MS,
              timer, () -> route(request, payload, key, replies, attempt + 1))) {
            replies.send(refused(request, "frontend " + name + " routes by ring epoch "
                + current.epoch() + " but " + target + " serves epoch " + answer.epoch()
                + ", still after " + attempt + " tries"));
          }
        });
  }

  /**
   * Runs {@code task} on {@code timer} once {@code early} completes or {@code pauseMs} has
   * passed, whichever comes first; false when the timer is shut down (nothing will run).
   */
  static boolean resumeWhen(CompletableFuture<?> early, long pauseMs,
      ScheduledExecutorService timer, Runnable task) {
    CompletableFuture<Void> either = new CompletableFuture<>();
    try {
      timer.schedule(() -> either.complete(null), pauseMs, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return false;
    }
    early.whenComplete((v, e) -> either.complete(null));
    either.thenRunAsync(task, timer);
    return true;
  }
}
