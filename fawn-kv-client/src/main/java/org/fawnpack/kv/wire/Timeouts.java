package org.fawnpack.kv.wire;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a sender waits for the answer to a request, per timeout class ({@link Verb.Wait}):
 * the one place the wait for a verb is chosen, so a node, the command line and a task waiting
 * for the same verb wait alike, and an operator changes it by one key
 * ({@code config.TimeoutKeys}). A caller whose operation carries a deadline of its own (a
 * client request, a bulk load's phase) waits for the shorter of the two.
 *
 * @param clientTry a client's try: {@link Verb.Wait#CLIENT_TRY}
 * @param answer an answer from memory or after a commit: {@link Verb.Wait#ANSWER}
 * @param transfer a piece of a copy, a scan page, a bulk step: {@link Verb.Wait#TRANSFER}
 */
public record Timeouts(Duration clientTry, Duration answer, Duration transfer) {
  /** What every node and command waits when no key says otherwise. */
  public static final Timeouts DEFAULTS = new Timeouts(Duration.ofSeconds(3),
      Duration.ofSeconds(10), Duration.ofSeconds(60));

  public Timeouts {
    positive(clientTry, "clientTry");
    positive(answer, "answer");
    positive(transfer, "transfer");
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException("the " + name + " timeout must be positive, not " + d);
    }
  }

  /**
   * How long to wait for {@code verb}'s answer.
   *
   * @throws IllegalArgumentException for a verb whose wait is not one duration: a reply, a
   *     chain message (resent, not timed) or a long poll ({@link #longPoll})
   */
  public Duration of(Verb verb) {
    return switch (verb.waitClass()) {
      case CLIENT_TRY -> clientTry;
      case ANSWER -> answer;
      case TRANSFER -> transfer;
      case LONG_POLL -> throw new IllegalArgumentException(verb + " waits for its own wait"
          + " first: use longPoll");
      case RESENT -> throw new IllegalArgumentException(verb + " is resent until answered,"
          + " not timed");
      case NONE -> throw new IllegalArgumentException(verb + " is a reply");
    };
  }

  /** How long to wait for a long poll's answer that the peer may hold for {@code heldMs}. */
  public Duration longPoll(long heldMs) {
    if (heldMs < 0) {
      throw new IllegalArgumentException("a long poll's wait is at least 0 ms, not " + heldMs);
    }
    return answer.plusMillis(heldMs);
  }

  /** The shorter of {@code verb}'s wait and {@code left} (what an operation's deadline leaves). */
  public Duration within(Verb verb, Duration left) {
    Duration own = of(verb);
    return left.compareTo(own) < 0 ? left : own;
  }
}
