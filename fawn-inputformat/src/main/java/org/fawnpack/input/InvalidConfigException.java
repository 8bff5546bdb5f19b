package org.fawnpack.input;

/**
 * A configuration value the pack cannot use. The message names the key, the value and what is
 * allowed; job drivers print it and exit with the usage code instead of a stack trace.
 */
public final class InvalidConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;

  public InvalidConfigException(String key, String message) {
    super(message);
    this.key = key;
  }

  public InvalidConfigException(String key, String message, Throwable cause) {
    super(message, cause);
    this.key = key;
  }

  /** The configuration key whose value is wrong. */
  public String key() {
    return key;
  }
}
