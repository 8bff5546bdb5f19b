package org.fawnpack.kv.frontend;

import java.io.Closeable;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.fawnpack.kv.auth.ClusterSecret;
import org.fawnpack.kv.ring.Member;
import org.fawnpack.kv.ring.Ring;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.wire.ConnectionPool;
import org.fawnpack.kv.wire.Fence;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.ProtocolLimits;
import org.fawnpack.kv.wire.Timeouts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raises every back-end's fence to a slice epoch before a front-end serves keys that another
 * front-end may have served (see {@code backend.SliceFence}): FENCE to every member of its
 * ring that is not down and to every back-end registered in ZooKeeper (a registered back-end
 * outside the ring may join it as a head later), all answered OK on one ring epoch, which means
 * each refuses writes admitted under older slice epochs and holds none it took before that is
 * not yet committed. A member the ring has not marked down but that does not answer (dead,
 * frozen) keeps the round going: once its session expires the ring marks it down, and its
 * successors, on that epoch, take nothing more from it. Attempts repeat with a back-off until
 * one succeeds or a newer epoch is asked for; {@code fenced} hears each epoch fenced.
 */
final class BackendFencing implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(BackendFencing.class);
  /** An attempt still failing after this long is worth a warning (a back-end not answering). */
  private static final long WARN_AFTER_MS = 10_000;

  /** Back-ends registered in ZooKeeper now (empty for a front-end with no ZooKeeper). */
  interface Registered {
    List<Member> backends() throws IOException;
  }

  private final String name;
  /** Its own connections and thread: a connect to a dead member must not hold up requests. */
  private final ConnectionPool pool;
  private final ScheduledExecutorService timer;
  private final Supplier<Ring> ring;
  private final Registered registered;
  /** Between rounds that left a back-end unfenced. */
  private final Backoff pauses;
  private final LongConsumer fenced;
  /** A back-end holds a FENCE while it drains ({@link Fence#DRAIN_LIMIT_MS}), then answers. */
  private final long answerWaitMs;
  private long wanted; // guarded by this: the newest epoch asked for
  private boolean running; // guarded by this

  BackendFencing(String name, ClusterSecret secret, Supplier<Ring> ring, Registered registered,
      LongConsumer fenced, Backoff pauses, Timeouts timeouts) {
    this.name = name;
    this.answerWaitMs = timeouts.longPoll(Fence.DRAIN_LIMIT_MS).toMillis();
    this.pauses = pauses;
    this.pool = new ConnectionPool(Duration.ofSeconds(5), ProtocolLimits.MAX_FRAME_BYTES, secret);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-fencing-" + name);
      t.setDaemon(true);
      return t;
    });
    this.ring = ring;
    this.registered = registered;
    this.fenced = fenced;
  }

  /** Fences every back-end at {@code sliceEpoch} (or a newer epoch asked for meanwhile). */
  void fence(long sliceEpoch) {
    synchronized (this) {
      if (sliceEpoch <= wanted && running) {
        return;
      }
      wanted = Math.max(wanted, sliceEpoch);
      if (running) {
        return; // the running round takes the newer epoch at its next attempt
      }
      running = true;
    }
    schedule(() -> attempt(System.nanoTime(), pauses.firstPauseMs()), 0);
  }

  private void attempt(long startedAt, long pauseMs) {
    long epoch;
    synchronized (this) {
      epoch = wanted;
    }
    Ring current = ring.get();
    List<Member> targets;
    try {
      targets = current == null ? null : targets(current);
    } catch (IOException | RuntimeException e) {
      retry(startedAt, pauseMs, epoch, "cannot list the registered back-ends: "
          + e.getMessage());
      return;
    }
    if (targets == null) {
      retry(startedAt, pauseMs, epoch, "no ring yet");
      return;
    }
    List<CompletableFuture<String>> answers = new ArrayList<>();
    for (Member m : targets) {
      answers.add(ask(m, current.epoch(), epoch));
    }
    CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).whenComplete((v, f) -> {
      List<String> problems = answers.stream().map(CompletableFuture::join)
          .filter(p -> p != null).toList();
      if (!problems.isEmpty()) {
        retry(startedAt, pauseMs, epoch, problems.size() + " of " + targets.size()
            + " back-ends not fenced on ring epoch " + current.epoch() + ", " + problems.get(0));
        return;
      }
      LOG.info("front-end {}: {} back-ends fenced at slice epoch {} in {} ms", name,
          targets.size(), epoch, (System.nanoTime() - startedAt) / 1_000_000);
      fenced.accept(epoch);
      boolean again;
      synchronized (this) {
        again = wanted > epoch;
        running = again;
      }
      if (again) {
        schedule(() -> attempt(System.nanoTime(), pauses.firstPauseMs()), 0);
      }
    });
  }

  /** Every ring member not down, then every registered back-end not among them. */
  private List<Member> targets(Ring current) throws IOException {
    Set<Member> all = new LinkedHashSet<>();
    for (Member m : current.members()) {
      if (!current.isDown(m.id())) {
        all.add(m);
      }
    }
    all.addAll(registered.backends());
    return List.copyOf(all);
  }

  /** Null once {@code m} answered OK, else what went wrong. */
  private CompletableFuture<String> ask(Member m, long ringEpoch, long sliceEpoch) {
    return pool.to(m).send(MessageType.FENCE, ringEpoch, new Fence(sliceEpoch).encode())
        .orTimeout(answerWaitMs, TimeUnit.MILLISECONDS)
        .handle((answer, failure) -> {
          if (failure != null) {
            return m + ": " + failure.getMessage();
          }
          if (answer.type() == MessageType.OK) {
            return null;
          }
          return m + " answered " + MessageType.name(answer.type())
              + (answer.type() == MessageType.STALE_RING ? " (its ring epoch "
                  + answer.epoch() + ")" : ": " + MessageType.messageOf(answer));
        });
  }

  private void retry(long startedAt, long pauseMs, long epoch, String why) {
    long elapsedMs = (System.nanoTime() - startedAt) / 1_000_000;
    if (elapsedMs >= WARN_AFTER_MS && elapsedMs - pauseMs < WARN_AFTER_MS) {
      LOG.warn("front-end {}: still fencing the back-ends at slice epoch {} after {} ms (the"
          + " keys it takes over wait): {}", name, epoch, elapsedMs, why);
    } else {
      LOG.debug("front-end {}: fencing at slice epoch {} again in {} ms: {}", name, epoch,
          pauseMs, why);
    }
    schedule(() -> attempt(startedAt, pauses.next(pauseMs)), pauseMs);
  }

  private void schedule(Runnable task, long delayMs) {
    try {
      timer.schedule(task, delayMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("front-end {} closing: no more fencing", name);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    pool.close();
  }
}
