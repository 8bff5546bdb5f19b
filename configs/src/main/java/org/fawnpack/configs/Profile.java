package org.fawnpack.configs;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * One node type: its resources, its role, its power figures (when measured) and its tuning,
 * every number with its source. Loaded by {@link ProfileReader}; built by {@link Deriver}.
 */
public record Profile(String name, Role role, String description, Resources resources,
    Optional<Power> power, Map<Setting, Sourced> tuning) {

  /** Cores (hardware threads), physical memory, data disks, network speed. */
  public record Resources(Sourced cores, Sourced memoryMb, Sourced disks, Sourced nicMbps) {}

  /** Measured idle and busy power of one node, for the energy collector's power model. */
  public record Power(Sourced idleWatts, Sourced busyWatts) {}

  public Profile {
    Map<Setting, Sourced> copy = new EnumMap<>(Setting.class);
    copy.putAll(tuning);
    tuning = Collections.unmodifiableMap(copy);
  }

  /** A tuning number; throws when this profile has none for {@code setting}. */
  public int get(Setting setting) {
    Sourced value = tuning.get(setting);
    if (value == null) {
      throw new IllegalStateException("profile " + name + " has no " + setting.yamlName());
    }
    return value.intValue();
  }

  public Sourced sourced(Setting setting) {
    return tuning.get(setting);
  }

  public boolean has(Setting setting) {
    return tuning.containsKey(setting);
  }
}
