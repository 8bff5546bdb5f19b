package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One powercap RAPL zone such as {@code intel-rapl:0} (package-0) or {@code intel-rapl:0:1}
 * (uncore). The id encodes the tree: a zone contains every zone whose id extends its own.
 */
record RaplZone(String id, Path dir, String name) {
  /**
   * The MSR interface's zones only: {@code intel-rapl-mmio:0} reads the same package counter
   * through another interface, so counting it too would count the package twice.
   */
  private static final Pattern ID = Pattern.compile("intel-rapl(:\\d+)+");

  /** The zones under {@code root}, in natural order; those without an energy counter skipped. */
  static List<RaplZone> discover(Path root) throws IOException {
    try (Stream<Path> entries = Files.list(root)) {
      return entries
          .filter(p -> ID.matcher(p.getFileName().toString()).matches())
          .filter(p -> Files.exists(p.resolve("energy_uj")))
          .map(p -> new RaplZone(p.getFileName().toString(), p,
              Objects.requireNonNullElse(SysfsFiles.readTextOrNull(p.resolve("name")), "")))
          .sorted(Comparator.comparing(RaplZone::id, SysfsFiles.NATURAL_ORDER))
          .toList();
    }
  }

  Path energyFile() {
    return dir.resolve("energy_uj");
  }

  Path maxEnergyRangeFile() {
    return dir.resolve("max_energy_range_uj");
  }

  /** {@code intel-rapl:<n>}: a package, or psys, not a part of one. */
  boolean isTopLevel() {
    return id.indexOf(':') == id.lastIndexOf(':');
  }

  /** The platform zone: the whole SoC and more, which already includes the packages. */
  boolean isPsys() {
    return name.startsWith("psys");
  }

  boolean contains(RaplZone other) {
    return other.id.startsWith(id + ":");
  }

  /** {@code intel-rapl:0 (package-0)}. */
  String describe() {
    return name.isEmpty() ? id : id + " (" + name + ")";
  }
}
