package org.fawnpack.kv.wire;

import java.io.IOException;

/**
 * A request was sent but its reply did not come within the caller's wait, on a link that has
 * not broken: the peer may be stalled (a long pause, an overloaded node), and the request may
 * still be taken later.
 */
public final class NoReplyException extends IOException {
  private static final long serialVersionUID = 1L;

  public NoReplyException(String message) {
    super(message);
  }
}
