package org.fawnpack.configs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads profiles: a built-in one by name from the classpath ({@code profiles/<name>.yaml}) or a
 * file by path. Every number must carry its source; bad files fail with file, key and value.
 */
public final class ProfileReader {

  /** The profiles shipped in the jar. */
  public static final List<String> BUILT_IN = List.of("edison", "dell-r620", "imx6q-novena",
      "rpi4-4g", "rpi5-8g", "brawny-master");

  private static final Set<String> TOP_KEYS = Set.of("name", "role", "description", "resources",
      "power", "tuning");

  private ProfileReader() {}

  /** A built-in profile name, or else a path to a profile file. */
  public static Profile load(String nameOrPath) {
    if (BUILT_IN.contains(nameOrPath)) {
      return builtIn(nameOrPath);
    }
    Path path = Path.of(nameOrPath);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("no profile '" + nameOrPath + "': neither a built-in ("
          + String.join(", ", BUILT_IN) + ") nor a file");
    }
    try {
      return parse(path.toString(), Files.readString(path, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read profile " + path, e);
    }
  }

  public static Profile builtIn(String name) {
    String resource = "profiles/" + name + ".yaml";
    try (InputStream in = ProfileReader.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no built-in profile '" + name + "'; built-in: "
            + String.join(", ", BUILT_IN));
      }
      return parse("classpath:" + resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  /** Parses one profile document; {@code file} names it in error messages. */
  public static Profile parse(String file, String text) {
    YamlNode root = YamlNode.parse(file, text);
    root.onlyKeys(TOP_KEYS);
    String name = root.string("name");
    if (!name.matches("[a-z0-9][a-z0-9._-]*")) {
      throw new ConfigFileException(file, "name", name, "must be lower-case letters, digits, . _ -");
    }
    Role role = role(root);
    YamlNode res = root.node("resources");
    res.onlyKeys(Set.of("cores", "memory-mb", "disks", "nic-mbps"));
    Profile.Resources resources = new Profile.Resources(
        res.sourced("cores", 1, 1024),
        res.sourced("memory-mb", 128, 16 * 1024 * 1024),
        res.sourced("disks", 0, 256),
        res.sourced("nic-mbps", 1, 1_000_000));
    Optional<Profile.Power> power = Optional.empty();
    if (root.has("power")) {
      YamlNode p = root.node("power");
      p.onlyKeys(Set.of("idle-watts", "busy-watts"));
      Sourced idle = p.sourced("idle-watts", 0, 100_000);
      Sourced busy = p.sourced("busy-watts", 0, 100_000);
      if (busy.value() < idle.value()) {
        throw new ConfigFileException(file, "power.busy-watts", busy.value(),
            "must not be below power.idle-watts (" + idle.value() + ")");
      }
      power = Optional.of(new Profile.Power(idle, busy));
    }
    Map<Setting, Sourced> tuning = tuning(root.node("tuning"), role);
    return new Profile(name, role, root.string("description", name), resources, power, tuning);
  }

  private static Role role(YamlNode root) {
    String role = root.string("role").toUpperCase(Locale.ROOT);
    try {
      return Role.valueOf(role);
    } catch (IllegalArgumentException e) {
      throw new ConfigFileException(root.file(), "role", root.string("role"),
          "must be master or slave");
    }
  }

  private static Map<Setting, Sourced> tuning(YamlNode node, Role role) {
    Set<String> allowed = new LinkedHashSet<>();
    for (Setting s : Setting.values()) {
      allowed.add(s.yamlName());
    }
    node.onlyKeys(allowed);
    Map<Setting, Sourced> tuning = new EnumMap<>(Setting.class);
    for (Setting s : Setting.values()) {
      boolean required = Setting.requiredFor(role).contains(s);
      if (!node.has(s.yamlName())) {
        if (required) {
          throw new ConfigFileException(node.file(), node.key(s.yamlName()), null,
              "is required for a " + role.yamlName() + " profile");
        }
        continue;
      }
      Sourced value = node.sourced(s.yamlName(), 1, 1 << 24);
      if (value.value() != Math.rint(value.value())) {
        throw new ConfigFileException(node.file(), node.key(s.yamlName()) + ".value",
            value.value(), "must be a whole number");
      }
      tuning.put(s, value);
    }
    return tuning;
  }
}
