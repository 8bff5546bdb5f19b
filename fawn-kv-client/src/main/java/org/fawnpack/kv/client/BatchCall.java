package org.fawnpack.kv.client;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.fawnpack.kv.time.Backoff;
import org.fawnpack.kv.wire.Connection;
import org.fawnpack.kv.wire.Frame;
import org.fawnpack.kv.wire.MessageType;
import org.fawnpack.kv.wire.NotSentException;

/**
 * A client's batch ({@code getAll}, {@code putAll}): every request pipelined at once on one
 * connection per front-end, then retried together in rounds; a front-end that answers nothing,
 * not even a probe, fails its requests of the round at once.
 */
final class BatchCall {
  private final SliceRoutes routes;
  private final Duration deadline;
  private final Duration tryTimeout;
  private final Backoff pauses;

  BatchCall(SliceRoutes routes, Duration deadline, Duration tryTimeout, Backoff pauses) {
    this.pauses = pauses;
    this.routes = routes;
    this.deadline = deadline;
    this.tryTimeout = tryTimeout;
  }

  /**
   * Sends every request at once, then takes the answers in order, each waited for as a single
   * call's try ({@link TryWait}: on while its front-end answers a probe); those that failed go
   * again together, in rounds paced as single calls' tries, until all are answered or the
   * tries or the deadline run out. Throws when any finally failed.
   */
  List<Frame> call(byte type, List<byte[]> keys, List<TryPayload> payloads) throws IOException {
    long end = System.nanoTime() + deadline.toNanos();
    boolean write = type != MessageType.GET; // only a write's failed try may have had effect
    Frame[] answers = new Frame[payloads.size()];
    boolean[] mayHaveApplied = new boolean[payloads.size()];
    String[] problems = new String[payloads.size()];
    List<Integer> left = new ArrayList<>();
    for (int i = 0; i < payloads.size(); i++) {
      left.add(i);
    }
    java.util.Set<Integer> settled = new java.util.HashSet<>(); // failed for good
    for (int attempt = 1; !left.isEmpty(); attempt++) {
      List<Connection> used = new ArrayList<>(left.size());
      List<CompletableFuture<Frame>> replies = new ArrayList<>(left.size());
      java.util.Map<Connection, KvException> silent = new java.util.IdentityHashMap<>();
      for (int i : left) {
        Connection c;
        try {
          c = routes.to(keys.get(i), mayHaveApplied[i]);
          KvException probed = silent.get(c);
          if (probed != null) {
            throw probed; // probed once this round already
          }
          try {
            TryWait.notFrozen(c, routes, end);
          } catch (IOException e) {
            KvException notSent = e instanceof KvException kv ? kv
                : new KvException(e.getMessage() + "; not sent", true);
            silent.put(c, notSent);
            throw notSent;
          }
        } catch (KvException e) {
          replies.add(CompletableFuture.failedFuture(e)); // not sent: applied nowhere
          used.add(null);
          continue;
        }
        used.add(c);
        replies.add(c.send(type, 0, payloads.get(i).forTry(mayHaveApplied[i])));
      }
      List<Integer> failed = new ArrayList<>();
      java.util.Map<Connection, Boolean> frozen = new java.util.IdentityHashMap<>();
      for (int k = 0; k < left.size(); k++) {
        int i = left.get(k);
        try {
          Connection c = used.get(k);
          if (c == null) {
            replies.get(k).get(); // not sent: fails at once
          }
          if (Boolean.TRUE.equals(frozen.get(c))) { // found frozen for an earlier request
            throw new java.util.concurrent.TimeoutException("no reply from " + c);
          }
          Frame answer;
          try {
            answer = TryWait.await(c, replies.get(k), tryTimeout, end);
          } catch (org.fawnpack.kv.wire.NoReplyException e) {
            frozen.put(c, true);
            throw new java.util.concurrent.TimeoutException(e.getMessage());
          }
          routes.answered(c);
          if (answer.type() == MessageType.WRONG_SLICE) {
            routes.wrongSlice(answer); // sent again by the new map in the next round
            problems[i] = MessageType.messageOf(answer);
            failed.add(i);
            continue;
          }
          if (answer.type() != MessageType.ERROR && answer.type() != MessageType.REFUSED
              && answer.type() != MessageType.UNKNOWN_OUTCOME
              && answer.type() != MessageType.LOST) {
            answers[i] = answer;
            continue;
          }
          mayHaveApplied[i] |= write && answer.type() != MessageType.REFUSED
              && answer.type() != MessageType.LOST;
          problems[i] = MessageType.messageOf(answer);
          if (answer.type() == MessageType.UNKNOWN_OUTCOME
              || answer.type() == MessageType.LOST) {
            settled.add(i); // no try can tell more (or do better): it fails as it is, unsent
            continue;
          }
        } catch (java.util.concurrent.ExecutionException
            | java.util.concurrent.TimeoutException | IOException e) {
          if (e instanceof java.util.concurrent.TimeoutException) {
            routes.noReply(used.get(k)); // frozen: the next round asks the others
          }
          Throwable cause = e.getCause() != null && !(e instanceof IOException) ? e.getCause()
              : e;
          mayHaveApplied[i] |= write && !(cause instanceof NotSentException)
              && !(cause instanceof KvException);
          problems[i] = cause.getMessage() != null ? cause.getMessage() : cause.toString();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new KvException("interrupted waiting for a batch", false);
        }
        failed.add(i);
      }
      left = failed;
      for (Connection c : used) {
        if (c != null && c.isBroken()) {
          routes.broken(c);
        }
      }
      long pauseMs = pauses.pauseAfter(attempt);
      if (left.isEmpty() || attempt >= FawnKvClient.MAX_ATTEMPTS
          || System.nanoTime() + pauseMs * 1_000_000 >= end) {
        break;
      }
      FawnKvClient.pause(pauseMs);
    }
    List<Integer> unanswered = new ArrayList<>(left);
    unanswered.addAll(settled);
    java.util.Collections.sort(unanswered);
    if (!unanswered.isEmpty()) {
      boolean refused = unanswered.stream().noneMatch(i -> mayHaveApplied[i]);
      throw new KvException(unanswered.size() + " of " + payloads.size() + " "
          + MessageType.name(type) + "s failed; the first: " + problems[unanswered.get(0)],
          refused);
    }
    return List.of(answers);
  }
}
