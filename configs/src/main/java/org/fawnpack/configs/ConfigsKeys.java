package org.fawnpack.configs;

import java.util.List;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.ConfigReference;

/**
 * The {@code fawn.configs.*} keys: {@code fawn profile render} writes them into every host's
 * yarn-site.xml and {@code fawn profile validate} reads them back. They have no defaults: a
 * directory rendered by hand or by an older version simply lacks them, and the checks that need
 * them are skipped. {@link #referenceTable()} is the table docs/configuration.md and
 * docs/profiles.md carry (a test keeps them equal).
 */
public final class ConfigsKeys {
  /** Written for people; nothing reads it. */
  public static final ConfigKey<String> PROFILE = ConfigKey.stringKey("fawn.configs.profile",
      null, "The profile the host was rendered from.");

  public static final ConfigKey<String> ROLE = ConfigKey.stringKey("fawn.configs.role", null,
      "master or slave", v -> v.equals("master") || v.equals("slave"), "`master` or `slave`;"
      + " validate finds the master by it (or by the node label `master`).");

  public static final ConfigKey<Integer> HOST_MEMORY_MB = ConfigKey.optionalIntKey(
      "fawn.configs.host.memory-mb", 1, Integer.MAX_VALUE, "The host's physical memory in MB"
      + " (from its profile); validate checks `yarn.nodemanager.resource.memory-mb` against"
      + " it.");

  /** The keys above, in the order of the configuration reference. */
  public static final List<ConfigKey<?>> KEYS = List.of(PROFILE, ROLE, HOST_MEMORY_MB);

  private ConfigsKeys() {}

  /** The keys and meanings as a markdown table. */
  public static String referenceTable() {
    return ConfigReference.table(KEYS);
  }
}
