package org.fawnpack.kv.client;

import java.io.IOException;

/** A request the cluster answered with an error, or did not answer in time; says which. */
public class KvException extends IOException {
  private static final long serialVersionUID = 1L;

  public KvException(String message) {
    super(message);
  }

  public KvException(String message, Throwable cause) {
    super(message, cause);
  }
}
