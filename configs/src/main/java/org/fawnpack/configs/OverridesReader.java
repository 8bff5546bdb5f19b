package org.fawnpack.configs;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads an inventory's {@code overrides:} section (cluster-wide, or in one host's entry): the
 * operator's own properties per rendered file, which every render writes last, so they survive a
 * re-render and are validated with the rest.
 *
 * <pre>
 * overrides:
 *   yarn-site.xml: {yarn.nodemanager.pmem-check-enabled: false}
 * </pre>
 */
final class OverridesReader {
  private OverridesReader() {}

  static Inventory.Overrides read(YamlNode parent) {
    if (!parent.has("overrides")) {
      return Inventory.Overrides.NONE;
    }
    YamlNode node = parent.node("overrides");
    Map<String, Map<String, String>> files = new LinkedHashMap<>();
    for (String file : node.keys()) {
      if (!ClusterConfs.FILES.contains(file)) {
        throw new ConfigFileException(node.file(), node.key(file), null, "is not a rendered file;"
            + " allowed: " + String.join(", ", ClusterConfs.FILES));
      }
      YamlNode props = node.node(file);
      Map<String, String> values = new LinkedHashMap<>();
      for (String key : props.keys()) {
        if (key.toLowerCase(java.util.Locale.ROOT).contains("passphrase")) {
          throw new ConfigFileException(props.file(), props.key(key), "(hidden)", "secrets go"
              + " into a Hadoop credential provider, never into a site file");
        }
        values.put(key, props.string(key));
      }
      files.put(file, values);
    }
    return new Inventory.Overrides(files);
  }
}
