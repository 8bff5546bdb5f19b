package org.fawnpack.energy;

/** A bad {@code fawn.energy.*} setting; the message names the key and the value. */
public class EnergyConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String key;

  public EnergyConfigException(String key, String message) {
    super(key + " " + message);
    this.key = key;
  }

  public String key() {
    return key;
  }
}
