package org.fawnpack.kv.wire;

import java.io.IOException;

/**
 * A request was not sent at all: its connection had already broken. Unlike a failure after
 * sending, the request certainly had no effect, so a client may send it elsewhere.
 */
public final class NotSentException extends IOException {
  private static final long serialVersionUID = 1L;

  NotSentException(IOException broken) {
    super("not sent: " + broken.getMessage(), broken);
  }
}
