package org.fawnpack.configs;

/**
 * The {@code fawn.configs.*} keys: {@code fawn profile render} writes them into every host's
 * yarn-site.xml and {@code fawn profile validate} reads them back. They have no defaults: a
 * directory rendered by hand or by an older version simply lacks them, and the checks that need
 * them are skipped. {@link #referenceTable()} is the table docs/configuration.md and
 * docs/profiles.md carry (a test keeps them equal).
 */
public final class ConfigsKeys {
  /** The profile the host was rendered from (written for people; nothing reads it). */
  public static final String PROFILE = "fawn.configs.profile";
  /** {@code master} or {@code slave}; validate finds the master by it. */
  public static final String ROLE = "fawn.configs.role";
  /** The host's physical memory in MB, from its profile. */
  public static final String HOST_MEMORY_MB = "fawn.configs.host.memory-mb";

  private ConfigsKeys() {}

  /** The keys and meanings as a markdown table. */
  public static String referenceTable() {
    return "| key | default | meaning |\n|---|---|---|\n"
        + row(PROFILE, "The profile the host was rendered from.")
        + row(ROLE, "`master` or `slave`; validate finds the master by it (or by the node"
            + " label `master`).")
        + row(HOST_MEMORY_MB, "The host's physical memory (from its profile); validate checks"
            + " `yarn.nodemanager.resource.memory-mb` against it.");
  }

  private static String row(String key, String meaning) {
    return "| `" + key + "` | — | " + meaning + " |\n";
  }
}
