package org.fawnpack.energy.meter;

import org.fawnpack.conf.InvalidConfigValueException;

/**
 * A bad meter option ({@code fawn.energy.meter.<name>.<option>}) in the words of the meter that
 * checks it: the options depend on each other (a protocol with its pass phrase, a device with
 * its sensor), so the message is the meter's own. It names the key; code that handles any bad
 * {@code fawn.*} value catches {@link InvalidConfigValueException}.
 */
public class EnergyConfigException extends InvalidConfigValueException {
  private static final long serialVersionUID = 1L;

  public EnergyConfigException(String key, String message) {
    super(key, "", "see the meter's documentation", key + " " + message);
  }
}
