package org.fawnpack.configs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ConfigsKeysTest {
  private static final Path SOURCES = Path.of("src/main/java/org/fawnpack/configs");
  private static final Pattern FAWN_KEY = Pattern.compile("\"(fawn\\.[a-z]+\\.[A-Za-z0-9.-]*)");

  /** The docs carry the table the code prints, so a key cannot drift. */
  @Test
  void referenceTable_isInTheDocs() throws Exception {
    String table = ConfigsKeys.referenceTable();
    for (Path doc : new Path[] {Path.of("../docs/configuration.md"),
        Path.of("../docs/profiles.md")}) {
      assertTrue(Files.readString(doc).contains(table), doc + " lacks the current table:\n"
          + table);
    }
  }

  /**
   * Every {@code fawn.} key literal in the module's sources is either one of ours (named
   * fawn.configs.*, in the table) or one of the energy collector's, documented in energy.md.
   */
  @Test
  void sources_useOnlyDocumentedFawnKeys() throws Exception {
    Set<String> literals = new TreeSet<>();
    try (Stream<Path> files = Files.list(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        Matcher m = FAWN_KEY.matcher(Files.readString(file));
        while (m.find()) {
          literals.add(m.group(1));
        }
      }
    }
    assertTrue(literals.contains(ConfigsKeys.ROLE.name()), literals.toString());
    String table = ConfigsKeys.referenceTable();
    String energyDoc = Files.readString(Path.of("../docs/energy.md"));
    for (String key : literals) {
      if (key.startsWith("fawn.configs.")) {
        assertTrue(table.contains("`" + key + "`"), key + " is not in ConfigsKeys' table");
      } else {
        assertTrue(key.startsWith("fawn.energy."), key + ": not fawn.configs.* nor the"
            + " collector's fawn.energy.*");
        // fawn.energy.meter.<name>.<key>: energy.md documents the pattern, and the model
        // meter's own keys in its section.
        String suffix = key.startsWith("fawn.energy.meter.model.")
            ? key.substring("fawn.energy.meter.model.".length()) : null;
        boolean documented = suffix != null
            ? energyDoc.contains("`fawn.energy.meter.<name>." + suffix + "`")
                || energyDoc.contains("`." + suffix + "`")
            : key.equals("fawn.energy.meter.") ? energyDoc.contains("`fawn.energy.meter.<name>.")
            : energyDoc.contains("`" + key + "`");
        assertTrue(documented, key + " is not in docs/energy.md");
      }
    }
  }

  @Test
  void keys_areNamedForTheModule() {
    for (String key : new String[] {ConfigsKeys.PROFILE.name(), ConfigsKeys.ROLE.name(),
        ConfigsKeys.HOST_MEMORY_MB.name()}) {
      assertTrue(key.matches("fawn\\.configs\\.[a-z][a-z.-]*"), key);
    }
    assertEquals(ConfigsKeys.ROLE.name(), ClusterRenderer.ROLE_KEY);
  }
}
