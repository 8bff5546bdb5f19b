package org.fawnpack.kv.client;

import java.io.IOException;
import org.apache.yetus.audience.InterfaceAudience;
import org.apache.yetus.audience.InterfaceStability;

/**
 * A request that failed: refused (it was applied nowhere, {@link #refused()}), or failed on
 * the way or unanswered, when a put or delete may or may not have taken effect.
 */
@InterfaceAudience.Public
@InterfaceStability.Evolving
public class KvException extends IOException {
  private static final long serialVersionUID = 1L;

  private final boolean refused;

  public KvException(String message, boolean refused) {
    super(message);
    this.refused = refused;
  }

  public KvException(String message, Throwable cause) {
    super(message, cause);
    this.refused = false;
  }

  /** True when the cluster said it applied the request nowhere. */
  public boolean refused() {
    return refused;
  }
}
