package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns {@code powercap-root} and {@code zones} into the RAPL zones a {@link RaplMeter} adds up,
 * so that no joule is counted twice: RAPL zones nest (a package includes its core, uncore and,
 * on some servers, DRAM sub-zones; psys includes the packages), and each counter reports the
 * energy of everything beneath it.
 */
final class RaplZoneSelection {
  private static final Logger LOG = LoggerFactory.getLogger(RaplZoneSelection.class);
  static final String ROOT = "powercap-root";
  static final String ZONES = "zones";
  static final String DEFAULT_ROOT = "/sys/class/powercap";

  private RaplZoneSelection() {
  }

  static List<RaplZone> select(MeterSpec spec) {
    List<RaplZone> all = discover(spec);
    List<String> wanted = spec.getList(ZONES);
    if (wanted.isEmpty()) {
      return defaults(spec, all);
    }
    List<RaplZone> chosen = new ArrayList<>();
    for (String id : new LinkedHashSet<>(wanted)) {
      chosen.add(find(all, id).orElseThrow(() -> new EnergyConfigException(spec.key(ZONES),
          "entry '" + id + "' is not a RAPL zone under " + spec.get(ROOT, DEFAULT_ROOT)
          + "; found " + describe(all))));
    }
    return withoutOverlaps(spec, withoutPackagesUnderPsys(spec, chosen));
  }

  private static List<RaplZone> discover(MeterSpec spec) {
    String rootValue = spec.get(ROOT, DEFAULT_ROOT);
    Path root = Paths.get(rootValue);
    if (!Files.isDirectory(root)) {
      throw new EnergyConfigException(spec.key(ROOT), "is not a directory: '" + rootValue
          + "' (no powercap support in this kernel?)");
    }
    try {
      return RaplZone.discover(root);
    } catch (IOException e) {
      throw new EnergyConfigException(spec.key(ROOT), "'" + rootValue + "' cannot be listed: " + e);
    }
  }

  /** Every package: the top-level zones, less psys, which would count the packages again. */
  private static List<RaplZone> defaults(MeterSpec spec, List<RaplZone> all) {
    List<RaplZone> packages = all.stream().filter(z -> z.isTopLevel() && !z.isPsys()).toList();
    if (packages.isEmpty()) {
      throw new EnergyConfigException(spec.key(ROOT), "'" + spec.get(ROOT, DEFAULT_ROOT)
          + "' holds no RAPL package zone intel-rapl:<n> (found " + describe(all) + "); RAPL "
          + "needs the intel_rapl_msr module and a CPU and host (not most VMs) that expose it");
    }
    return packages;
  }

  private static List<RaplZone> withoutPackagesUnderPsys(MeterSpec spec, List<RaplZone> chosen) {
    List<RaplZone> psys = chosen.stream().filter(RaplZone::isPsys).toList();
    if (psys.isEmpty() || psys.size() == chosen.size()) {
      return chosen;
    }
    LOG.warn("meter '{}' ({}): {} covers the whole platform, packages included; counting it "
        + "alone, not {}", spec.name(), spec.key(ZONES), describe(psys),
        describe(chosen.stream().filter(z -> !z.isPsys()).toList()));
    return psys;
  }

  private static List<RaplZone> withoutOverlaps(MeterSpec spec, List<RaplZone> chosen) {
    List<RaplZone> kept = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (RaplZone zone : chosen) {
      Optional<RaplZone> parent = chosen.stream().filter(p -> p.contains(zone)).findFirst();
      if (parent.isPresent()) {
        dropped.add(zone.describe() + " (in " + parent.get().id() + ")");
      } else {
        kept.add(zone);
      }
    }
    if (!dropped.isEmpty()) {
      LOG.warn("meter '{}' ({}): not counting {}: the selected parent zone already includes "
          + "its energy", spec.name(), spec.key(ZONES), String.join(", ", dropped));
    }
    return kept;
  }

  private static Optional<RaplZone> find(List<RaplZone> all, String id) {
    return all.stream().filter(z -> z.id().equals(id)).findFirst();
  }

  private static String describe(List<RaplZone> zones) {
    return zones.isEmpty() ? "none"
        : zones.stream().map(RaplZone::describe).collect(Collectors.joining(", "));
  }
}
