package org.fawnpack.conf;

/**
 * A configuration value outside what its key allows. The message names the key, the value as
 * given and what is allowed: {@code fawn.kv.sync = sometimes is invalid: must be one of none,
 * interval, every-write}.
 */
public class InvalidConfigValueException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String key;
  private final String value;
  private final String allowed;

  public InvalidConfigValueException(String key, Object value, String allowed) {
    this(key, value, allowed, key + " = " + value + " is invalid: must be " + allowed);
  }

  /**
   * For checks whose words do not fit the one-line shape (a meter's options that depend on
   * each other); the message still names the key.
   */
  protected InvalidConfigValueException(String key, Object value, String allowed,
      String message) {
    super(message);
    this.key = key;
    this.value = String.valueOf(value);
    this.allowed = allowed;
  }

  public String key() {
    return key;
  }

  public String value() {
    return value;
  }

  /** What the key allows, as in the message ("1..60000", "true or false", ...). */
  public String allowed() {
    return allowed;
  }
}
