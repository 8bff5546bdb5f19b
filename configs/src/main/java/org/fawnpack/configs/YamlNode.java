package org.fawnpack.configs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * A mapping read from a YAML file, with the file name and the dotted path of the mapping kept so
 * that every error names the file, the key and the value. Only plain YAML types are built
 * (SafeConstructor): a file cannot instantiate classes.
 */
final class YamlNode {
  private final String file;
  private final String path;
  private final Map<String, Object> map;

  private YamlNode(String file, String path, Map<String, Object> map) {
    this.file = file;
    this.path = path;
    this.map = map;
  }

  static YamlNode parse(String file, String text) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    } catch (YAMLException e) {
      throw new ConfigFileException(file, "(document)", null, "is not valid YAML: "
          + e.getMessage().replace('\n', ' '));
    }
    if (!(root instanceof Map)) {
      throw new ConfigFileException(file, "(document)", null, "must be a YAML mapping of keys");
    }
    return new YamlNode(file, "", stringKeys(file, "", (Map<?, ?>) root));
  }

  private static Map<String, Object> stringKeys(String file, String path, Map<?, ?> raw) {
    Map<String, Object> out = new LinkedHashMap<>();
    raw.forEach((k, v) -> {
      if (!(k instanceof String)) {
        throw new ConfigFileException(file, path + k, v, "keys must be words");
      }
      out.put((String) k, v);
    });
    return out;
  }

  String file() {
    return file;
  }

  String key(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  boolean has(String name) {
    return map.containsKey(name) && map.get(name) != null;
  }

  Set<String> keys() {
    return map.keySet();
  }

  /** Fails on any key not in {@code allowed}: a typo must not silently fall back to a default. */
  void onlyKeys(Set<String> allowed) {
    for (String k : map.keySet()) {
      if (!allowed.contains(k)) {
        throw new ConfigFileException(file, key(k), map.get(k), "unknown key; allowed: "
            + String.join(", ", allowed));
      }
    }
  }

  Object raw(String name) {
    return map.get(name);
  }

  String string(String name) {
    Object v = map.get(name);
    if (v == null) {
      throw new ConfigFileException(file, key(name), null, "is required");
    }
    if (v instanceof Map || v instanceof List) {
      throw new ConfigFileException(file, key(name), v, "must be a single value");
    }
    String s = String.valueOf(v).trim();
    if (s.isEmpty()) {
      throw new ConfigFileException(file, key(name), "''", "must not be empty");
    }
    return s;
  }

  String string(String name, String defaultValue) {
    return has(name) ? string(name) : defaultValue;
  }

  YamlNode node(String name) {
    Object v = map.get(name);
    if (v == null) {
      throw new ConfigFileException(file, key(name), null, "is required");
    }
    if (!(v instanceof Map)) {
      throw new ConfigFileException(file, key(name), v, "must be a mapping");
    }
    return new YamlNode(file, key(name), stringKeys(file, key(name), (Map<?, ?>) v));
  }

  List<?> list(String name) {
    Object v = map.get(name);
    if (!(v instanceof List)) {
      throw new ConfigFileException(file, key(name), v, v == null ? "is required"
          : "must be a list");
    }
    return (List<?>) v;
  }

  YamlNode element(String name, int index, Object value) {
    String at = key(name) + "[" + index + "]";
    if (!(value instanceof Map)) {
      throw new ConfigFileException(file, at, value, "must be a mapping");
    }
    return new YamlNode(file, at, stringKeys(file, at, (Map<?, ?>) value));
  }

  /**
   * A number with its source: {@code {value: 600, source: "seed 003 §5.2"}}, checked to lie in
   * [min, max]. The source is required: a number nobody can trace is not kept.
   */
  Sourced sourced(String name, double min, double max) {
    YamlNode entry = node(name);
    entry.onlyKeys(Set.of("value", "source"));
    Object v = entry.raw("value");
    if (!(v instanceof Number)) {
      throw new ConfigFileException(file, entry.key("value"), v, v == null ? "is required"
          : "must be a number");
    }
    double value = ((Number) v).doubleValue();
    if (!(value >= min && value <= max)) {
      throw new ConfigFileException(file, entry.key("value"), v, "must be in [" + fmt(min) + ", "
          + fmt(max) + "]");
    }
    String source = entry.has("source") ? entry.string("source") : null;
    if (source == null) {
      throw new ConfigFileException(file, entry.key("source"), null,
          "is required: say where the number comes from");
    }
    return Sourced.of(value, source);
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
