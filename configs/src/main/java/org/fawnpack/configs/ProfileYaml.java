package org.fawnpack.configs;

import java.util.Map;

/** Writes a profile in the file format {@link ProfileReader} reads (what {@code derive} prints). */
public final class ProfileYaml {

  private ProfileYaml() {}

  public static String write(Profile p) {
    StringBuilder y = new StringBuilder();
    y.append("name: ").append(p.name()).append('\n');
    y.append("role: ").append(p.role().yamlName()).append('\n');
    y.append("description: ").append(quote(p.description())).append('\n');
    y.append("resources:\n");
    entry(y, "cores", p.resources().cores());
    entry(y, "memory-mb", p.resources().memoryMb());
    entry(y, "disks", p.resources().disks());
    entry(y, "nic-mbps", p.resources().nicMbps());
    p.power().ifPresent(power -> {
      y.append("power:\n");
      entry(y, "idle-watts", power.idleWatts());
      entry(y, "busy-watts", power.busyWatts());
    });
    y.append("tuning:\n");
    for (Map.Entry<Setting, Sourced> e : p.tuning().entrySet()) {
      entry(y, e.getKey().yamlName(), e.getValue());
    }
    return y.toString();
  }

  private static void entry(StringBuilder y, String key, Sourced s) {
    String number = s.value() == Math.rint(s.value()) ? Long.toString((long) s.value())
        : Double.toString(s.value());
    y.append("  ").append(key).append(": {value: ").append(number).append(", source: ")
        .append(quote(s.source())).append("}\n");
  }

  static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
