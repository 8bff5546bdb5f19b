package org.fawnpack.kv.time;

import java.time.Duration;
import org.apache.yetus.audience.InterfaceAudience;
import org.apache.yetus.audience.InterfaceStability;

/**
 * How long to pause between tries of something the cluster may soon allow (a chain being
 * repaired, a member on another epoch, a front-end restarting): the first pause, doubled after
 * each try, never more than the largest. One type for every retry loop of FAWN-KV, so they
 * read alike and are tuned in one place ({@link Backoffs}, set by the {@code
 * fawn.kv.backoff.*} keys); how many tries and by when stay each caller's (a request's
 * deadline, a scan's failover wait). Public: a client is given its own pauses between tries
 * ({@code FawnKvClientBuilder.retryPauses}).
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public record Backoff(long firstPauseMs, long maxPauseMs) {
  /** A client's request between its tries: 50 ms, 100, 200, ... (six tries stop at 800). */
  public static final Backoff CLIENT_REQUEST = new Backoff(50, 1_600);
  /** A scan's page, or a front-end fencing the back-ends: 20 ms, doubling up to 500. */
  public static final Backoff CLUSTER_STEP = new Backoff(20, 500);
  /** A bulk load's driver waiting for a chain or a gate: 20 ms, doubling up to 1 s. */
  public static final Backoff BULK_STEP = new Backoff(20, 1_000);

  public Backoff {
    if (firstPauseMs < 1 || maxPauseMs < firstPauseMs) {
      throw new IllegalArgumentException("a backoff pauses at least 1 ms, first at most the"
          + " largest: " + firstPauseMs + " ms, then up to " + maxPauseMs + " ms");
    }
  }

  /** As {@link #Backoff(long, long)}, from durations. */
  public static Backoff of(Duration firstPause, Duration maxPause) {
    return new Backoff(firstPause.toMillis(), maxPause.toMillis());
  }

  /** The pause after try {@code tries} (1 = after the first try). */
  public long pauseAfter(int tries) {
    if (tries < 1) {
      throw new IllegalArgumentException("a pause comes after a try, not after " + tries);
    }
    long pause = firstPauseMs;
    for (int i = 1; i < tries && pause < maxPauseMs; i++) {
      pause = next(pause);
    }
    return pause;
  }

  /** The pause after one of {@code pauseMs}: doubled, at most the largest. */
  public long next(long pauseMs) {
    // Compared with half the largest, so that a doubling never overflows.
    return pauseMs > maxPauseMs / 2 ? maxPauseMs : Math.max(firstPauseMs, pauseMs * 2);
  }
}
