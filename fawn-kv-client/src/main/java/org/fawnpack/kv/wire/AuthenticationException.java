package org.fawnpack.kv.wire;

import java.io.IOException;

/** A connection whose peer did not prove the cluster secret; it is closed. */
public class AuthenticationException extends IOException {
  private static final long serialVersionUID = 1L;

  public AuthenticationException(String message) {
    super(message);
  }
}
