package org.fawnpack.kv.wire;

/**
 * Thrown by a {@link FrameServer.Handler} running a request on the event loop
 * ({@link FrameServer.Replies#mayBlock} false) when the request would have to wait — for a
 * lock a split or compaction holds — and before it changed or answered anything: the server
 * then queues the request on its connection's own queue, whose thread may wait, and keeps the
 * connection's order by queueing every later request behind it. Carries no stack trace: it is
 * flow, not failure.
 */
public final class WouldBlockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public WouldBlockException(String why) {
    super(why, null, false, false);
  }
}
