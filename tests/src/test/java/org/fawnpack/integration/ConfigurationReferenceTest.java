package org.fawnpack.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.ConfigReference;
import org.fawnpack.configs.ConfigsKeys;
import org.fawnpack.energy.EnergyKeys;
import org.fawnpack.input.FawnInputConfig;
import org.fawnpack.jobs.JobKeys;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.store.DatastoreConfig;
import org.fawnpack.minicluster.EmbeddedClusterSpec;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md against the key definitions of every module: each key's row (name,
 * default, meaning) is there exactly as the code defines it, every key row of the document is a
 * key some module defines, and each key is named {@code fawn.<its module>.<thing>}.
 */
class ConfigurationReferenceTest {

  private static final Path REFERENCE = Path.of("../docs/configuration.md");
  /** A row of a reference table whose first cell is a single fawn.* key. */
  private static final Pattern KEY_ROW = Pattern.compile("^\\| `(fawn\\.[a-z0-9.-]+)` \\|",
      Pattern.MULTILINE);

  /** Each module's keys under the prefix its keys must carry. */
  private static final Map<String, List<ConfigKey<?>>> KEYS_BY_PREFIX = Map.of(
      "fawn.input.", FawnInputConfig.KEYS,
      "fawn.jobs.", JobKeys.KEYS,
      "fawn.configs.", ConfigsKeys.KEYS,
      "fawn.kv.", java.util.stream.Stream.of(DatastoreConfig.KEYS, KvKeys.KEYS,
          org.fawnpack.kv.hadoop.KvInputKeys.KEYS, org.fawnpack.kv.hadoop.KvOutputKeys.KEYS)
          .flatMap(List::stream).toList(),
      "fawn.minicluster.", EmbeddedClusterSpec.KEYS,
      "fawn.energy.", EnergyKeys.KEYS);

  @Test
  void reference_hasEveryKeysRowAsTheCodeDefinesIt() throws Exception {
    String document = Files.readString(REFERENCE);
    List<String> missing = new ArrayList<>();
    for (List<ConfigKey<?>> keys : KEYS_BY_PREFIX.values()) {
      missing.addAll(ConfigReference.missingFrom(document, keys));
    }
    assertEquals(List.of(), missing, REFERENCE + " lacks these rows (or has them differently)");
  }

  @Test
  void reference_documentsNoKeyTheCodeLacks() throws Exception {
    Set<String> defined = KEYS_BY_PREFIX.values().stream().flatMap(List::stream)
        .map(ConfigKey::name).collect(Collectors.toSet());
    Set<String> unknown = new TreeSet<>();
    Matcher row = KEY_ROW.matcher(Files.readString(REFERENCE));
    while (row.find()) {
      String key = row.group(1);
      if (KEYS_BY_PREFIX.keySet().stream().anyMatch(key::startsWith) && !defined.contains(key)) {
        unknown.add(key);
      }
    }
    assertEquals(Set.of(), unknown, "rows of " + REFERENCE + " that no module defines");
  }

  @Test
  void keys_areNamedForTheirModule() {
    KEYS_BY_PREFIX.forEach((prefix, keys) -> keys.forEach(key -> assertTrue(
        key.name().startsWith(prefix) && key.name().length() > prefix.length(),
        key.name() + " should be named " + prefix + "<thing>")));
  }
}
