package org.fawnpack.energy.meter;

import static org.fawnpack.energy.meter.SysfsTestFiles.spec;
import static org.fawnpack.energy.meter.SysfsTestFiles.symlink;
import static org.fawnpack.energy.meter.SysfsTestFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fawnpack.conf.InvalidConfigValueException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaplMeterTest {
  private static final double EPS = 1e-9;
  /** The range most Intel packages report. */
  private static final long MAX = 262_143_328_850L;

  @TempDir
  Path tmp;
  Path root;

  @BeforeEach
  void setUp() {
    root = tmp.resolve("class/powercap");
  }

  /**
   * A zone as the kernel lays it out: the real directory nested under its parent in
   * /sys/devices/virtual/powercap, and a symlink to it in /sys/class/powercap.
   */
  private Path zone(String id, String name, long energyUj) {
    Path real = tmp.resolve("devices/virtual/powercap/intel-rapl");
    String[] parts = id.split(":");
    for (int i = 1; i < parts.length; i++) {
      real = real.resolve(String.join(":", List.of(parts).subList(0, i + 1)));
    }
    write(real, "name", name);
    write(real, "energy_uj", energyUj);
    write(real, "max_energy_range_uj", MAX);
    symlink(root.resolve(id), real);
    return real;
  }

  private static void energy(Path zone, long energyUj) {
    write(zone, "energy_uj", energyUj);
  }

  /** The powercap control type directory, which is no zone and has no counter. */
  private void controlType() {
    write(root.resolve("intel-rapl"), "enabled", 1);
  }

  private RaplMeter meter(String... settings) {
    return meter(SysfsLongReader.FILES, settings);
  }

  private RaplMeter meter(SysfsLongReader reader, String... settings) {
    String[] all = new String[settings.length + 2];
    all[0] = "powercap-root";
    all[1] = root.toString();
    System.arraycopy(settings, 0, all, 2, settings.length);
    return new RaplMeter(spec("rapl", all), reader);
  }

  private static double joules(RaplMeter meter) throws IOException {
    MeterReading reading = meter.read();
    assertEquals(MeterReading.Kind.CUMULATIVE_JOULES, reading.kind());
    assertFalse(reading.estimated());
    return reading.value();
  }

  @Test
  void read_firstReadBaseline_thenDeltasAccumulate() throws IOException {
    Path pkg0 = zone("intel-rapl:0", "package-0", 1_000_000);
    Path pkg1 = zone("intel-rapl:1", "package-1", 70_000_000);
    RaplMeter meter = meter();
    assertEquals("rapl", meter.name());
    assertEquals(0.0, joules(meter), EPS);
    energy(pkg0, 3_500_000);
    energy(pkg1, 71_000_000);
    assertEquals(2.5 + 1.0, joules(meter), EPS);
    energy(pkg0, 4_000_000);
    assertEquals(3.5 + 0.5, joules(meter), EPS);
    assertEquals(4.0, joules(meter), EPS); // nothing used: total unchanged
  }

  @Test
  void read_counterWrapsAtMaxRange_keepsCounting() throws IOException {
    Path pkg = zone("intel-rapl:0", "package-0", 262_143_000_000L);
    RaplMeter meter = meter();
    assertEquals(0.0, joules(meter), EPS);
    energy(pkg, 500_000);
    // up to the max: 328850, the step from max to 0: 1, then 500000
    double wrapped = (328_850 + 1 + 500_000) / 1e6;
    assertEquals(wrapped, joules(meter), EPS);
    energy(pkg, 2_500_000);
    assertEquals(wrapped + 2.0, joules(meter), EPS);
  }

  @Test
  void increment_wrap_moduloRange() {
    long range = MAX + 1;
    assertEquals(828_851, RaplCounter.increment(262_143_000_000L, 500_000, range));
    assertEquals(1, RaplCounter.increment(MAX, 0, range));
    assertEquals(0, RaplCounter.increment(42, 42, range));
    assertEquals(MAX, RaplCounter.increment(0, MAX, range));
  }

  @Test
  void read_subZoneWithItsParent_countedOnlyInParent() throws IOException {
    Path pkg = zone("intel-rapl:0", "package-0", 10_000_000);
    Path core = zone("intel-rapl:0:0", "core", 5_000_000);
    Path dram = zone("intel-rapl:1:0", "dram", 1_000_000);
    zone("intel-rapl:1", "package-1", 0);
    RaplMeter meter = meter("zones", "intel-rapl:0:0, intel-rapl:0, intel-rapl:1:0");
    assertEquals(List.of("intel-rapl:0", "intel-rapl:1:0"), meter.zoneIds());
    joules(meter);
    energy(pkg, 16_000_000); // 6 J, of which the core's 4 J
    energy(core, 9_000_000);
    energy(dram, 1_250_000);
    assertEquals(6.0 + 0.25, joules(meter), EPS);
  }

  @Test
  void read_subZoneAlone_counted() throws IOException {
    zone("intel-rapl:0", "package-0", 10_000_000);
    Path dram = zone("intel-rapl:0:2", "dram", 2_000_000);
    RaplMeter meter = meter("zones", "intel-rapl:0:2");
    assertEquals(List.of("intel-rapl:0:2"), meter.zoneIds());
    joules(meter);
    energy(dram, 2_750_000);
    assertEquals(0.75, joules(meter), EPS);
  }

  @Test
  void read_psysWithPackages_psysCountedAlone() throws IOException {
    Path pkg = zone("intel-rapl:0", "package-0", 1_000_000);
    zone("intel-rapl:0:0", "core", 1_000_000);
    Path psys = zone("intel-rapl:1", "psys", 4_000_000);
    RaplMeter meter = meter("zones", "intel-rapl:0,intel-rapl:0:0,intel-rapl:1");
    assertEquals(List.of("intel-rapl:1"), meter.zoneIds());
    joules(meter);
    energy(pkg, 3_000_000);
    energy(psys, 9_000_000);
    assertEquals(5.0, joules(meter), EPS);
  }

  @Test
  void start_defaultZones_everyPackageButNotPsysSubZonesOrMmio() throws IOException {
    controlType();
    zone("intel-rapl:0", "package-0", 0);
    zone("intel-rapl:0:0", "dram", 0);
    zone("intel-rapl:1", "package-1", 0);
    zone("intel-rapl:1:0", "dram", 0);
    zone("intel-rapl:2", "psys", 0);
    write(root.resolve("intel-rapl-mmio:0"), "name", "package-0");
    write(root.resolve("intel-rapl-mmio:0"), "energy_uj", 0);
    write(root.resolve("intel-rapl-mmio:0"), "max_energy_range_uj", MAX);
    assertEquals(List.of("intel-rapl:0", "intel-rapl:1"), meter().zoneIds());
  }

  @Test
  void start_defaultZones_numericOrder() {
    for (int n : new int[] {10, 2, 0, 1}) {
      zone("intel-rapl:" + n, "package-" + n, 0);
    }
    assertEquals(List.of("intel-rapl:0", "intel-rapl:1", "intel-rapl:2", "intel-rapl:10"),
        meter().zoneIds());
  }

  @Test
  void start_noPackageZone_configErrorOnRoot() throws IOException {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter());
    assertEquals("fawn.energy.meter.rapl.powercap-root", e.key());
    controlType();
    e = assertThrows(InvalidConfigValueException.class, () -> meter());
    assertEquals("fawn.energy.meter.rapl.powercap-root", e.key());
    assertTrue(e.getMessage().contains("intel_rapl_msr"), e.getMessage());
  }

  @Test
  void start_unknownZone_configErrorListingZones() {
    zone("intel-rapl:0", "package-0", 0);
    zone("intel-rapl:0:0", "core", 0);
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> meter("zones", "intel-rapl:1"));
    assertEquals("fawn.energy.meter.rapl.zones", e.key());
    assertTrue(e.getMessage().contains("'intel-rapl:1'"), e.getMessage());
    assertTrue(e.getMessage().contains("intel-rapl:0 (package-0), intel-rapl:0:0 (core)"),
        e.getMessage());
  }

  /** Denies energy_uj as a kernel since 5.10 does for anyone but root, while {@code deny}. */
  private static SysfsLongReader denyingEnergy(AtomicBoolean deny) {
    return file -> {
      if (deny.get() && file.getFileName().toString().equals("energy_uj")) {
        throw new AccessDeniedException(file.toString());
      }
      return SysfsLongReader.FILES.read(file);
    };
  }

  private static void assertExplainsTheFix(String message) {
    assertTrue(message.contains("permission denied"), message);
    assertTrue(message.contains("CVE-2020-8694"), message);
    assertTrue(message.contains("z /sys/class/powercap/intel-rapl:*/energy_uj 0440 root yarn"),
        message);
    assertTrue(message.contains("hwmon"), message);
  }

  @Test
  void start_counterReadableOnlyByRoot_failsNamingTheFix() {
    zone("intel-rapl:0", "package-0", 0);
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> meter(denyingEnergy(new AtomicBoolean(true))));
    assertEquals("fawn.energy.meter.rapl.zones", e.key());
    assertTrue(e.getMessage().contains(root.resolve("intel-rapl:0/energy_uj").toString()),
        e.getMessage());
    assertExplainsTheFix(e.getMessage());
  }

  @Test
  void read_counterBecomesRootOnly_failsNamingPermissionKey() throws IOException {
    zone("intel-rapl:0", "package-0", 0);
    AtomicBoolean deny = new AtomicBoolean(false);
    RaplMeter meter = meter(denyingEnergy(deny));
    assertEquals(0.0, joules(meter), EPS);
    deny.set(true);
    MeterException e = assertThrows(MeterException.class, meter::read);
    assertEquals("permission", e.causeKey());
    assertExplainsTheFix(e.getMessage());
  }

  @Test
  void start_modeZeroFile_deniedUnlessRoot() throws IOException {
    Path pkg = zone("intel-rapl:0", "package-0", 0);
    Path counter = pkg.resolve("energy_uj");
    Files.setPosixFilePermissions(counter, PosixFilePermissions.fromString("---------"));
    try {
      assumeFalse(Files.isReadable(counter), "running as root: root reads mode-000 files");
      InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter());
      assertExplainsTheFix(e.getMessage());
    } finally {
      Files.setPosixFilePermissions(counter, PosixFilePermissions.fromString("rw-r--r--"));
    }
  }

  @Test
  void read_afterFailedRead_nextReadCoversBothIntervals() throws IOException {
    Path pkg0 = zone("intel-rapl:0", "package-0", 0);
    Path pkg1 = zone("intel-rapl:1", "package-1", 0);
    RaplMeter meter = meter();
    joules(meter);
    energy(pkg0, 1_000_000);
    Files.delete(pkg1.resolve("energy_uj"));
    MeterException e = assertThrows(MeterException.class, meter::read);
    assertEquals("unreadable", e.causeKey());
    assertTrue(e.getMessage().contains("energy_uj"), e.getMessage());
    energy(pkg0, 3_000_000);
    energy(pkg1, 500_000);
    assertEquals(3.0 + 0.5, joules(meter), EPS);
  }

  @Test
  void read_garbageCounter_badValue() throws IOException {
    Path pkg = zone("intel-rapl:0", "package-0", 0);
    RaplMeter meter = meter();
    joules(meter);
    write(pkg, "energy_uj", "n/a");
    MeterException e = assertThrows(MeterException.class, meter::read);
    assertEquals("bad-value", e.causeKey());
    assertTrue(e.getMessage().contains("holds 'n/a'"), e.getMessage());
    write(pkg, "energy_uj", -5);
    assertEquals("bad-value", assertThrows(MeterException.class, meter::read).causeKey());
  }

  @Test
  void start_zoneWithoutRange_configError() {
    Path pkg = zone("intel-rapl:0", "package-0", 0);
    write(pkg, "max_energy_range_uj", 0);
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter());
    assertEquals("fawn.energy.meter.rapl.zones", e.key());
  }
}
