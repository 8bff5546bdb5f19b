package org.fawnpack.kv.wire;

import java.io.IOException;

/**
 * A frame that breaks the protocol: wrong version, unknown type, a length over the limit, a
 * field running past the frame's end. The connection that sent it is closed with this message
 * logged; nothing in it is served or stored.
 */
public class MalformedFrameException extends IOException {
  private static final long serialVersionUID = 1L;

  public MalformedFrameException(String message) {
    super(message);
  }
}
