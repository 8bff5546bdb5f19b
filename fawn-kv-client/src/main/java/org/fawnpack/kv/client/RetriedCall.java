package org.fawnpack.kv.client;

import java.io.IOException;
import java.time.Duration;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.NoReplyException;
import org.fawnpack.kv.wire.NotSentException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request of {@link FawnKvClient} through the front-end that serves its key, tried again
 * after a failure that leaves it worth trying (see the client's retry rules), following
 * WRONG_SLICE to the owner without counting it as a try.
 */
final class RetriedCall {
  private static final Logger LOG = LoggerFactory.getLogger(FawnKvClient.class);
  /** WRONG_SLICE answers followed per try: a map changes at most this often meanwhile. */
  private static final int MAX_WRONG_SLICE_HOPS = 3;

  private final SliceRoutes routes;
  private final Duration tryTimeout;
  private final Backoff pauses;

  RetriedCall(SliceRoutes routes, Duration tryTimeout, Backoff pauses) {
    this.pauses = pauses;
    this.routes = routes;
    this.tryTimeout = tryTimeout;
  }

  /**
   * Sends the request until it is answered other than ERROR or REFUSED, or the tries or
   * {@code end} (System.nanoTime()) run out; then the last answer (an ERROR when a try may have
   * taken effect).
   */
  Frame call(byte type, byte[] key, TryPayload payload, long end) throws IOException {
    boolean write = type != MessageType.GET; // only a write's failed try may have had effect
    boolean mayHaveApplied = false; // some try of a write may have taken effect
    String lastProblem = null;
    int wrongSliceHops = 0;
    Frame lost = null;
    int lostAfter = 0;
    for (int attempt = 1; ; attempt++) {
      Frame answer = null;
      Connection c = null;
      try {
        c = routes.to(key, mayHaveApplied); // a front-end down: a failed try, not the end
        TryWait.notFrozen(c, routes, end);
        answer = TryWait.await(c, c.send(type, 0, payload.forTry(mayHaveApplied)), tryTimeout,
            end);
        routes.answered(c);
        if (answer.type() == MessageType.WRONG_SLICE && wrongSliceHops < MAX_WRONG_SLICE_HOPS) {
          routes.wrongSlice(answer); // applied nowhere: straight to the owner, not a try
          wrongSliceHops++;
          attempt--;
          continue;
        }
        if (answer.type() == MessageType.LOST) { // for good: no try will do better
          lost = answer;
          lostAfter = attempt;
          break;
        }
        if (answer.type() != MessageType.ERROR && answer.type() != MessageType.REFUSED
            && answer.type() != MessageType.UNKNOWN_OUTCOME
            && answer.type() != MessageType.WRONG_SLICE) {
          return answer;
        }
        mayHaveApplied |= write && answer.type() == MessageType.ERROR;
        lastProblem = MessageType.messageOf(answer);
      } catch (IOException e) {
        if (c != null && c.isBroken()) {
          routes.broken(c); // the next try asks for the slice map first
        } else if (e instanceof NoReplyException) {
          routes.noReply(c); // frozen, maybe: the next try asks the others for the map
        }
        mayHaveApplied |= write && c != null && !(e instanceof NotSentException)
            && !(e instanceof KvException kv && kv.refused());
        lastProblem = e.getMessage();
      }
      if (answer != null && answer.type() == MessageType.UNKNOWN_OUTCOME) {
        // No further try can tell more: an earlier one may have taken effect.
        throw new KvException(MessageType.name(type) + " failed after " + attempt + " tries: "
            + lastProblem, false);
      }
      long pauseMs = pauses.pauseAfter(attempt);
      if (attempt >= FawnKvClient.MAX_ATTEMPTS || System.nanoTime() + pauseMs * 1_000_000 >= end) {
        String message = MessageType.name(type) + " failed after " + attempt + " tries: "
            + lastProblem;
        throw new KvException(message, !mayHaveApplied);
      }
      LOG.debug("{} again in {} ms after: {}", MessageType.name(type), pauseMs, lastProblem);
      FawnKvClient.pause(pauseMs);
    }
    throw new KvException(MessageType.name(type) + " failed after " + lostAfter + " tries: "
        + MessageType.messageOf(lost), !mayHaveApplied);
  }
}
