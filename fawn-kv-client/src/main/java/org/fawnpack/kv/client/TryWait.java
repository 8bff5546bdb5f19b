package org.fawnpack.kv.client;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.NoReplyException;

/**
 * How long a client waits for a try: while the front-end is alive, as long as the request's
 * deadline allows (a busy chain may take seconds to force a write); once it answers nothing,
 * not at all. Every try's timeout without an answer, the front-end is asked for its slice map
 * (SLICES, which it answers without any back-end); an answer of any kind means it is alive and
 * the wait goes on, none within {@link #PROBE} means it is frozen (a long pause, a stopped
 * process) and the try ends with {@link NoReplyException}, so the client asks the others
 * where the key is served now.
 */
final class TryWait {
  /** How long a live front-end may take to answer SLICES, however busy its back-ends. */
  static final Duration PROBE = Duration.ofSeconds(1);

  private TryWait() {}

  /** The reply to {@code reply}, sent on {@code c}, by {@code endNanos} at the latest. */
  static Frame await(Connection c, CompletableFuture<Frame> reply, Duration tryTimeout,
      long endNanos) throws IOException {
    while (true) {
      long leftMs = TimeUnit.NANOSECONDS.toMillis(endNanos - System.nanoTime());
      try {
        return reply.get(Math.max(1, Math.min(leftMs, tryTimeout.toMillis())),
            TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        leftMs = TimeUnit.NANOSECONDS.toMillis(endNanos - System.nanoTime());
        if (leftMs <= 0 || !alive(c, Math.min(leftMs, PROBE.toMillis()))) {
          reply.cancel(false);
          throw new NoReplyException((leftMs <= 0 ? "no reply by the deadline" : "no reply"
              + " within " + tryTimeout.toMillis() + " ms, and no answer to a probe within "
              + Math.min(leftMs, PROBE.toMillis()) + " ms") + " from " + c);
        }
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        throw cause instanceof IOException io ? io : new IOException(cause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for " + c, e);
      }
    }
  }

  /**
   * Before a try is sent to a front-end that let the last one go unanswered: it must answer a
   * probe first, or the try fails unsent (a refusal: nothing was applied), so a client whose map
   * still names a frozen front-end pays a probe per try, not a try's timeout, until the map
   * moves on.
   */
  static void notFrozen(Connection c, SliceRoutes routes, long endNanos) throws IOException {
    if (!routes.isSuspect(c)) {
      return;
    }
    long waitMs = Math.min(PROBE.toMillis(),
        TimeUnit.NANOSECONDS.toMillis(endNanos - System.nanoTime()));
    if (!alive(c, waitMs)) {
      routes.noReply(c); // still frozen: the next try asks the others for the map again
      throw new KvException("front-end " + c + " answers nothing (frozen, or cut off) for "
          + waitMs + " ms; not sent", true);
    }
    routes.answered(c);
  }

  /** Whether the front-end on {@code c} answers SLICES within {@code waitMs}. */
  static boolean alive(Connection c, long waitMs) throws IOException {
    try {
      c.call(MessageType.SLICES, 0, new byte[0], Duration.ofMillis(Math.max(1, waitMs)));
      return true;
    } catch (NoReplyException e) {
      return false;
    }
  }
}
