package org.fawnpack.energy.meter;

import java.io.IOException;

/**
 * A failed meter read. The {@code causeKey} names the kind of failure ("timeout",
 * "no-such-object", "permission") so the sampler logs each kind once, not once per second.
 */
public class MeterException extends IOException {
  private static final long serialVersionUID = 1L;
  private final String causeKey;

  public MeterException(String causeKey, String message) {
    super(message);
    this.causeKey = causeKey;
  }

  public MeterException(String causeKey, String message, Throwable cause) {
    super(message, cause);
    this.causeKey = causeKey;
  }

  public String causeKey() {
    return causeKey;
  }
}
