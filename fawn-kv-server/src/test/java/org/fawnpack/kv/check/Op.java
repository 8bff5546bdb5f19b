package org.fawnpack.kv.check;

import java.util.Arrays;

/**
 * One client operation on one key as the history recorder saw it: what was asked, when it was
 * invoked and when its answer came (nanoseconds), and what the answer was. An operation that
 * timed out or lost its connection is <em>indeterminate</em>: it may have taken effect at any
 * time after its invocation, or never.
 */
public record Op(Kind kind, byte[] written, long invokedAt, long answeredAt, Outcome outcome,
    byte[] read, boolean found) {

  public enum Kind { PUT, GET, DELETE }

  public enum Outcome {
    /** Answered: took effect exactly once between invocation and answer. */
    OK,
    /** Refused with an error that means it did not happen (e.g. a short chain). */
    FAILED,
    /** No answer (deadline, broken link): it may or may not have happened. */
    INDETERMINATE
  }

  public static Op put(byte[] value, long invokedAt, long answeredAt, Outcome outcome) {
    return new Op(Kind.PUT, value, invokedAt, answeredAt, outcome, null, false);
  }

  /** A get that answered {@code read} (null: absent). */
  public static Op get(byte[] read, long invokedAt, long answeredAt) {
    return new Op(Kind.GET, null, invokedAt, answeredAt, Outcome.OK, read, read != null);
  }

  public static Op delete(boolean found, long invokedAt, long answeredAt, Outcome outcome) {
    return new Op(Kind.DELETE, null, invokedAt, answeredAt, outcome, null, found);
  }

  /**
   * The register's next state if this op can take effect on {@code state}, or {@code REFUSED}
   * when its answer contradicts {@code state} (an indeterminate op's answer is unknown, so it
   * never contradicts).
   */
  byte[] step(byte[] state) {
    boolean known = outcome == Outcome.OK;
    return switch (kind) {
      case PUT -> written;
      case GET -> Arrays.equals(read, state) ? state : REFUSED;
      case DELETE -> !known || found == (state != null) ? null : REFUSED;
    };
  }

  static final byte[] REFUSED = new byte[0];

  @Override
  public String toString() {
    String what = switch (kind) {
      case PUT -> "put(" + text(written) + ")";
      case GET -> "get=" + text(read);
      case DELETE -> "delete=" + (outcome == Outcome.OK ? found : "?");
    };
    return what + "[" + invokedAt + ".." + (outcome == Outcome.INDETERMINATE ? "?"
        : answeredAt) + (outcome == Outcome.OK ? "" : " " + outcome) + "]";
  }

  private static String text(byte[] b) {
    return b == null ? "null" : new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }
}
