package org.fawnpack.configs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a cluster inventory:
 *
 * <pre>
 * cluster: edison-35
 * meters:
 *   box1: {type: scpi, address: "10.0.5.1:5025"}
 * hosts:
 *   - {host: master, profile: brawny-master}
 *   - {host: "edison-[01-07]", profile: edison, meters: [box1], address: "10.0.1.[11-17]"}
 *   - {host: edison-08, profile: edison, domain: /box2}
 * </pre>
 *
 * A host name may hold one numeric range {@code [01-07]} (the width of the first bound is kept).
 * A profile is a built-in name or a file path relative to the inventory. Exactly one host must
 * have a master profile. {@code domain:} is the host's failure domain (an HDFS rack path,
 * {@link FailureDomains}), {@code address:} its IPv4 address ({@link HostAddresses}).
 */
public final class InventoryReader {
  private static final Pattern RANGE = Pattern.compile("^(.*)\\[(\\d+)-(\\d+)\\](.*)$");
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?");
  private static final Pattern METER_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  private InventoryReader() {}

  public static Inventory read(Path file) {
    if (!Files.isRegularFile(file)) {
      // A mistyped path is bad input (exit 2 in the tool), not an I/O failure.
      throw new ConfigFileException(file.toString(), "(file)", null, "no such inventory file");
    }
    try {
      return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8),
          file.toAbsolutePath().getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read inventory " + file, e);
    }
  }

  /** Parses an inventory; relative profile paths resolve against {@code dir}. */
  public static Inventory parse(String file, String text, Path dir) {
    YamlNode root = YamlNode.parse(file, text);
    root.onlyKeys(Set.of("cluster", "energy-collector-jar", "hadoop-conf-dir", "hadoop-home",
        "data-dirs", "overrides", "meters", "hosts"));
    String cluster = root.string("cluster");
    if (!cluster.matches("[A-Za-z0-9_.-]+")) {
      throw new ConfigFileException(file, "cluster", cluster, "must be [A-Za-z0-9_.-]+");
    }
    Map<String, Map<String, String>> meters = meters(root);
    List<Inventory.Host> hosts = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    Set<String> usedMeters = new LinkedHashSet<>();
    Set<String> seenAddresses = new LinkedHashSet<>();
    Map<String, Profile> profiles = new HashMap<>();
    List<?> entries = root.list("hosts");
    for (int i = 0; i < entries.size(); i++) {
      YamlNode entry = root.element("hosts", i, entries.get(i));
      entry.onlyKeys(Set.of("host", "profile", "meters", "overrides", "domain", "address"));
      String profileName = entry.string("profile");
      Profile profile = profiles.computeIfAbsent(profileName, n -> profile(entry, n, dir));
      List<String> hostMeters = hostMeters(entry, meters);
      Inventory.Overrides hostOverrides = OverridesReader.read(entry);
      usedMeters.addAll(hostMeters);
      List<String> names = expand(entry, entry.string("host"));
      String domain = entry.has("domain") ? FailureDomains.checkForm(file, entry.key("domain"),
          entry.string("host"), entry.string("domain")) : null;
      List<String> addresses = HostAddresses.of(entry, names);
      for (int n = 0; n < names.size(); n++) {
        String name = names.get(n);
        if (!seen.add(name)) {
          throw new ConfigFileException(file, entry.key("host"), name, "is listed twice");
        }
        if (name.equals(RenderedCluster.CLIENT_DIR)) {
          throw new ConfigFileException(file, entry.key("host"), name, "is the name of the"
              + " rendered client directory; give the host its full name");
        }
        if (addresses.get(n) != null && !seenAddresses.add(addresses.get(n))) {
          throw new ConfigFileException(file, entry.key("address"), addresses.get(n), "host "
              + name + ": the address is given to another host too");
        }
        hosts.add(new Inventory.Host(name, profile, hostMeters, hostOverrides, domain,
            addresses.get(n)));
      }
    }
    long masters = hosts.stream().filter(Inventory.Host::isMaster).count();
    if (masters != 1) {
      throw new ConfigFileException(file, "hosts", masters + " masters",
          "exactly one host needs a master profile (e.g. brawny-master)");
    }
    if (hosts.size() < 2) {
      throw new ConfigFileException(file, "hosts", hosts.size() + " host(s)",
          "a cluster needs a master and at least one slave");
    }
    for (String meter : meters.keySet()) {
      if (!usedMeters.contains(meter)) {
        throw new ConfigFileException(file, "meters." + meter, null, "is used by no host");
      }
    }
    Inventory inventory = new Inventory(cluster, file,
        root.string("energy-collector-jar", Inventory.DEFAULT_ENERGY_JAR),
        // absolute: the rack table's path in core-site.xml is under it
        absolute(root, "hadoop-conf-dir", Inventory.DEFAULT_CONF_DIR),
        absolute(root, "hadoop-home", Inventory.DEFAULT_HADOOP_HOME), dataDirs(root), hosts,
        meters, OverridesReader.read(root));
    inventory.domains(); // a host on two shared supplies, or mixed depths, fails here
    return inventory;
  }

  private static String absolute(YamlNode root, String key, String defaultValue) {
    String path = root.string(key, defaultValue);
    if (!path.startsWith("/")) {
      throw new ConfigFileException(root.file(), root.key(key), path, "must be an absolute path"
          + " (the same on every host)");
    }
    return path;
  }

  /** The data-disk pattern: absolute, with {disk} so each disk gets its own directory. */
  private static String dataDirs(YamlNode root) {
    String pattern = absolute(root, "data-dirs", Inventory.DEFAULT_DATA_DIRS);
    if (!pattern.contains("{disk}")) {
      throw new ConfigFileException(root.file(), root.key("data-dirs"), pattern, "needs {disk}"
          + " (1, 2, ... for each disk of the host's profile), e.g. /data/{disk}/hadoop");
    }
    return pattern;
  }

  private static Profile profile(YamlNode entry, String name, Path dir) {
    if (ProfileReader.BUILT_IN.contains(name)) {
      return ProfileReader.builtIn(name);
    }
    // A file path is relative to the inventory, so an inventory works from any directory.
    Path file = dir == null ? Path.of(name) : dir.resolve(name);
    if (!Files.isRegularFile(file)) {
      throw new ConfigFileException(entry.file(), entry.key("profile"), name, "neither a"
          + " built-in profile (" + String.join(", ", ProfileReader.BUILT_IN) + ") nor a file ("
          + file + ")");
    }
    return ProfileReader.load(file.toString());
  }

  private static Map<String, Map<String, String>> meters(YamlNode root) {
    Map<String, Map<String, String>> meters = new LinkedHashMap<>();
    if (!root.has("meters")) {
      return meters;
    }
    YamlNode node = root.node("meters");
    for (String name : node.keys()) {
      if (!METER_NAME.matcher(name).matches()) {
        throw new ConfigFileException(root.file(), node.key(name), null,
            "a meter name must be [A-Za-z0-9_-]+");
      }
      YamlNode meter = node.node(name);
      meter.string("type");
      Map<String, String> settings = new LinkedHashMap<>();
      for (String key : meter.keys()) {
        if (key.equals("hosts")) {
          throw new ConfigFileException(root.file(), meter.key(key), meter.raw(key),
              "is computed from the hosts that list this meter; leave it out");
        }
        if (key.toLowerCase(Locale.ROOT).contains("passphrase")) {
          throw new ConfigFileException(root.file(), meter.key(key), "(hidden)",
              "secrets go into a Hadoop credential provider, never into yarn-site.xml"
              + " (docs/energy-meters-snmp.md)");
        }
        settings.put(key, meter.string(key));
      }
      meters.put(name, settings);
    }
    return meters;
  }

  private static List<String> hostMeters(YamlNode entry, Map<String, Map<String, String>> meters) {
    if (!entry.has("meters")) {
      return List.of();
    }
    Object raw = entry.raw("meters");
    List<String> names = new ArrayList<>();
    if (raw instanceof List<?> list) {
      list.forEach(o -> names.add(String.valueOf(o)));
    } else {
      names.add(entry.string("meters"));
    }
    for (String name : names) {
      if (!meters.containsKey(name)) {
        throw new ConfigFileException(entry.file(), entry.key("meters"), name,
            "names no meter in the inventory's meters: section");
      }
    }
    return List.copyOf(names);
  }

  static List<String> expand(YamlNode entry, String pattern) {
    List<String> names = ranges(entry, "host", pattern);
    for (String name : names) {
      if (!HOST.matcher(name).matches()) {
        throw new ConfigFileException(entry.file(), entry.key("host"), name,
            "is not a host name (letters, digits, '-' and '.')");
      }
    }
    return names;
  }

  /** Expands one numeric range {@code [01-07]} of {@code key}'s value (or none). */
  static List<String> ranges(YamlNode entry, String key, String pattern) {
    Matcher m = RANGE.matcher(pattern);
    List<String> names = new ArrayList<>();
    if (!m.matches()) {
      names.add(pattern);
    } else {
      int from = Integer.parseInt(m.group(2));
      int to = Integer.parseInt(m.group(3));
      if (to < from || to - from > 10_000) {
        throw new ConfigFileException(entry.file(), entry.key(key), pattern,
            "a range [a-b] needs a <= b and at most 10000 hosts");
      }
      int width = m.group(2).length();
      for (int i = from; i <= to; i++) {
        names.add(m.group(1) + String.format(Locale.ROOT, "%0" + width + "d", i) + m.group(4));
      }
    }
    return names;
  }
}
