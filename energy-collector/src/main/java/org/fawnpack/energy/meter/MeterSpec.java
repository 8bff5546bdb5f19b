package org.fawnpack.energy.meter;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.energy.EnergyKeys;

/**
 * The configuration of one named meter: the keys {@code fawn.energy.meter.<name>.*}. Getters
 * validate as they read, and every error names the full key and the bad value, so a typo in
 * yarn-site.xml is found at NodeManager start, not as a silent zero.
 */
public final class MeterSpec {
  public static final String PREFIX = EnergyKeys.METER_PREFIX;
  /** The collector's key: how long a sample waits for each meter's read. */
  public static final String METER_TIMEOUT_KEY = EnergyKeys.METER_TIMEOUT_MS.name();

  private final String name;
  private final Configuration conf;
  private final int meterTimeoutMillis;

  /** A meter built outside the collector, which knows no sample wait to fit into. */
  public MeterSpec(String name, Configuration conf) {
    this(name, conf, 0);
  }

  /**
   * A meter of the collector, which waits {@code meterTimeoutMillis} for each read ({@value
   * #METER_TIMEOUT_KEY}), so the meter can check its own timeouts against it at start.
   */
  public MeterSpec(String name, Configuration conf, int meterTimeoutMillis) {
    this.name = name;
    this.conf = conf;
    this.meterTimeoutMillis = meterTimeoutMillis;
  }

  public String name() {
    return name;
  }

  /** The whole configuration, e.g. for {@link Configuration#getPassword}. */
  public Configuration conf() {
    return conf;
  }

  /** How long the collector waits for each read, when the meter is built by the collector. */
  public OptionalInt meterTimeoutMillis() {
    return meterTimeoutMillis > 0 ? OptionalInt.of(meterTimeoutMillis) : OptionalInt.empty();
  }

  /** The full key of a setting of this meter: {@code fawn.energy.meter.<name>.<setting>}. */
  public String key(String setting) {
    return PREFIX + name + "." + setting;
  }

  /**
   * The meter type: {@code .type}, defaulting to the meter's name (so "model" needs no type).
   * Built-in type names are matched without regard to case; a class name is kept as written.
   */
  public String type() {
    String type = get("type", name);
    return type.contains(".") ? type : type.toLowerCase(Locale.ROOT);
  }

  public String get(String setting, String defaultValue) {
    String value = conf.getTrimmed(key(setting));
    return value == null || value.isEmpty() ? defaultValue : value;
  }

  public String require(String setting) {
    String value = get(setting, null);
    if (value == null) {
      throw new EnergyConfigException(key(setting), "is required for meter '" + name + "' (type "
          + type() + ")");
    }
    return value;
  }

  public List<String> getList(String setting) {
    String value = get(setting, null);
    if (value == null) {
      return List.of();
    }
    return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  // A meter's options are named at run time (fawn.energy.meter.<name>.<option>), so each read
  // builds its ConfigKey then: the same parsing and the same error as every fixed key.

  /** A whole number in [min, max]; {@code defaultValue} when unset or blank. */
  public int getInt(String setting, int defaultValue, int min, int max) {
    String raw = get(setting, null);
    if (raw == null) {
      return defaultValue; // callers may pass a default outside the range as "no value"
    }
    return ConfigKey.intKey(key(setting), Math.max(min, Math.min(max, defaultValue)), min, max,
        setting).parse(raw);
  }

  /** A finite number; {@code defaultValue} (which may be NaN: "no value") when unset or blank. */
  public double getDouble(String setting, double defaultValue) {
    Double value = ConfigKey.optionalDoubleKey(key(setting), -Double.MAX_VALUE,
        Double.MAX_VALUE, setting).parse(get(setting, null));
    return value == null ? defaultValue : value;
  }

  /** {@code true} or {@code false} (any case), nothing else; the default when unset or blank. */
  public boolean getBoolean(String setting, boolean defaultValue) {
    return ConfigKey.booleanKey(key(setting), defaultValue, setting).parse(get(setting, null));
  }

  /**
   * A secret (SNMPv3 pass phrases), read only through Hadoop's CredentialProvider
   * ({@code hadoop.security.credential.provider.path}). A plain-text value in the configuration
   * is refused rather than used, so a pass phrase never sits in yarn-site.xml. Null when absent.
   */
  public String secret(String setting) {
    String key = key(setting);
    try {
      char[] value = conf.getPasswordFromCredentialProviders(key);
      if (value != null) {
        return new String(value);
      }
    } catch (IOException e) {
      throw new EnergyConfigException(key, "could not be read from the credential provider: "
          + e.getMessage());
    }
    if (conf.get(key) != null) {
      throw new EnergyConfigException(key, "is set in plain text; store it in a credential provider "
          + "instead (hadoop credential create " + key + " -provider <path>) and set "
          + "hadoop.security.credential.provider.path");
    }
    return null;
  }
}
