package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Energy from Intel RAPL (and AMD's RAPL through the same driver) in
 * {@code /sys/class/powercap/intel-rapl:*}: the CPU packages, their parts, DRAM or psys, not
 * the whole wall power. Each {@link #read()} gives the joules since the meter's first read,
 * summed over the selected zones with each counter's wrap-around removed.
 *
 * <p>Keys {@code fawn.energy.meter.<name>.}: {@code powercap-root}, {@code zones}; see
 * docs/energy-meters-sysfs.md.
 */
public final class RaplMeter implements PowerMeter {
  private static final Logger LOG = LoggerFactory.getLogger(RaplMeter.class);
  private static final double MICRO = 1e-6;

  private final String name;
  private final SysfsLongReader reader;
  private final List<RaplCounter> counters = new ArrayList<>();
  private long totalUj;

  public RaplMeter(MeterSpec spec) {
    this(spec, SysfsLongReader.FILES);
  }

  RaplMeter(MeterSpec spec, SysfsLongReader reader) {
    this.name = spec.name();
    this.reader = reader;
    for (RaplZone zone : RaplZoneSelection.select(spec)) {
      long max = readAtStart(spec, zone.maxEnergyRangeFile());
      if (max <= 0) {
        throw new EnergyConfigException(spec.key(RaplZoneSelection.ZONES), "zone " + zone.id()
            + " has max_energy_range_uj " + max + "; a wrapping counter needs a positive range");
      }
      // Read once now so that a counter only root may read stops the NodeManager at start with
      // the fix, instead of leaving a meter that fails every second.
      readAtStart(spec, zone.energyFile());
      counters.add(new RaplCounter(zone, max));
    }
    LOG.info("rapl meter '{}' counts {}", name, zoneIds());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public synchronized MeterReading read() throws MeterException {
    // All counters are read before any is advanced: a failed read then leaves every baseline
    // as it was, and the next good read covers both intervals.
    long[] now = new long[counters.size()];
    for (int i = 0; i < now.length; i++) {
      now[i] = readEnergy(counters.get(i).zone().energyFile());
    }
    for (int i = 0; i < now.length; i++) {
      totalUj += counters.get(i).advance(now[i]);
    }
    return MeterReading.cumulativeJoules(totalUj * MICRO);
  }

  /** The zones counted, after the overlap rules, e.g. {@code [intel-rapl:0, intel-rapl:1]}. */
  List<String> zoneIds() {
    return counters.stream().map(c -> c.zone().id()).toList();
  }

  private long readEnergy(Path file) throws MeterException {
    try {
      return nonNegative(file, reader.read(file));
    } catch (AccessDeniedException e) {
      throw new MeterException("permission", permissionAdvice(file), e);
    } catch (MeterException e) {
      throw e;
    } catch (IOException e) {
      throw SysfsFiles.unreadable(file, e);
    }
  }

  private long readAtStart(MeterSpec spec, Path file) {
    String key = spec.key(RaplZoneSelection.ZONES);
    try {
      return nonNegative(file, reader.read(file));
    } catch (AccessDeniedException e) {
      throw new EnergyConfigException(key, "selects zones this user cannot read: "
          + permissionAdvice(file));
    } catch (MeterException e) {
      throw new EnergyConfigException(key, "selects a zone that cannot be read: " + e.getMessage());
    } catch (IOException e) {
      throw new EnergyConfigException(key, "selects a zone that cannot be read: "
          + SysfsFiles.unreadable(file, e).getMessage());
    }
  }

  /** The counters are unsigned; a negative value is garbage, not energy. */
  private static long nonNegative(Path file, long value) throws MeterException {
    if (value < 0) {
      throw new MeterException("bad-value", file + " holds " + value + ", a negative counter");
    }
    return value;
  }

  static String permissionAdvice(Path file) {
    return "permission denied reading " + file + ". Since Linux 5.10 energy_uj is readable by "
        + "root only (CVE-2020-8694, the PLATYPUS power side channel). Grant the NodeManager's "
        + "user read access, e.g. with the tmpfiles.d line "
        + "'z /sys/class/powercap/intel-rapl:*/energy_uj 0440 root yarn' (yarn: a group of that "
        + "user) or an equivalent udev rule, then restart the NodeManager; or meter this node "
        + "with the hwmon meter or another meter instead.";
  }
}
