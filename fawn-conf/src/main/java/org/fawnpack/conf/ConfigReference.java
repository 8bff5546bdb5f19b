package org.fawnpack.conf;

import java.util.ArrayList;
import java.util.List;

/**
 * The configuration reference of a set of keys: a markdown table of key, default and meaning,
 * as {@code docs/configuration.md} carries it, and the check that a document carries it.
 */
public final class ConfigReference {

  private ConfigReference() {}

  /** The markdown table of {@code keys}, in their order. */
  public static String table(List<ConfigKey<?>> keys) {
    StringBuilder b = new StringBuilder("| key | default | meaning |\n|---|---|---|\n");
    for (ConfigKey<?> key : keys) {
      b.append(key.referenceRow()).append('\n');
    }
    return b.toString();
  }

  /**
   * The keys whose row (name, default and doc as the code defines them) is not in
   * {@code document}, each with what the document says instead; empty when all are there.
   */
  public static List<String> missingFrom(String document, List<ConfigKey<?>> keys) {
    List<String> missing = new ArrayList<>();
    for (ConfigKey<?> key : keys) {
      if (document.contains(key.referenceRow())) {
        continue;
      }
      String documented = document.lines().filter(l -> l.startsWith("| `" + key.name() + "` |"))
          .findFirst().orElse("(no row)");
      missing.add(key.referenceRow() + "\n    the document has: " + documented);
    }
    return missing;
  }
}
