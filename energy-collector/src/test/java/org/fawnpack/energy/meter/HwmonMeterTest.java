package org.fawnpack.energy.meter;

import static org.fawnpack.energy.meter.SysfsTestFiles.spec;
import static org.fawnpack.energy.meter.SysfsTestFiles.symlink;
import static org.fawnpack.energy.meter.SysfsTestFiles.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.fawnpack.conf.InvalidConfigValueException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HwmonMeterTest {
  private static final double EPS = 1e-9;

  @TempDir
  Path tmp;
  Path root;

  @BeforeEach
  void setUp() {
    root = tmp.resolve("class/hwmon");
  }

  /** A CPU temperature sensor: no power at all, present on almost every node. */
  private Path coretemp(String entry) {
    Path dir = root.resolve(entry);
    write(dir, "name", "coretemp");
    write(dir, "temp1_input", 45000);
    return dir;
  }

  /** An INA226-style chip with power files: 12.5 W + 2.25 W. */
  private Path ina226(String entry) {
    return ina226(root.resolve(entry));
  }

  private Path ina226(Path dir) {
    write(dir, "name", "ina226");
    write(dir, "power1_input", 12_500_000);
    write(dir, "power2_input", 2_250_000);
    write(dir, "in1_input", 12000); // a voltage next to the power files is not used
    write(dir, "curr1_input", 1040);
    return dir;
  }

  /**
   * An INA3221 as the driver shows it: rails 1..3 (mV, mA), shunt voltages in4..in6, their sum
   * in7 and the summed current curr4, which are no rails.
   */
  private Path ina3221(Path dir) {
    write(dir, "name", "ina3221");
    write(dir, "in1_label", "VDD_IN");
    write(dir, "in1_input", 5000);
    write(dir, "curr1_input", 1200); // 6 W
    write(dir, "in2_input", 3300);
    write(dir, "curr2_input", 500); // 1.65 W
    write(dir, "in3_input", 1800);
    write(dir, "curr3_input", 100); // 0.18 W
    write(dir, "in4_input", 6400);
    write(dir, "in5_input", 300);
    write(dir, "in6_input", 20);
    write(dir, "in7_input", 6720);
    write(dir, "in7_label", "sum of shunt voltages");
    write(dir, "curr4_input", 1800);
    return dir;
  }

  private HwmonMeter meter(String... settings) {
    String[] all = new String[settings.length + 2];
    all[0] = "sysfs-root";
    all[1] = root.toString();
    System.arraycopy(settings, 0, all, 2, settings.length);
    return new HwmonMeter(spec("board", all));
  }

  private static double watts(HwmonMeter meter) throws IOException {
    MeterReading reading = meter.read();
    assertEquals(MeterReading.Kind.POWER_WATTS, reading.kind());
    assertFalse(reading.estimated());
    return reading.value();
  }

  @Test
  void read_powerFilesInMicrowatts_summedAsWatts() throws IOException {
    coretemp("hwmon0");
    ina226("hwmon1");
    HwmonMeter meter = meter();
    assertEquals("board", meter.name());
    assertEquals(12.5 + 2.25, watts(meter), EPS);
    write(root.resolve("hwmon1"), "power1_input", 10_000_000);
    assertEquals(10.0 + 2.25, watts(meter), EPS);
  }

  @Test
  void read_ina3221Rails_voltsTimesAmpsWithoutSumChannels() throws IOException {
    ina3221(root.resolve("hwmon0"));
    HwmonMeter meter = meter();
    assertEquals(List.of("hwmon0 (ina3221) in1*curr1 \"VDD_IN\"", "hwmon0 (ina3221) in2*curr2",
        "hwmon0 (ina3221) in3*curr3"), meter.descriptions());
    assertEquals(5.0 * 1.2 + 3.3 * 0.5 + 1.8 * 0.1, watts(meter), EPS);
  }

  @Test
  void read_channelDisabledByDriver_leftOutByDefault() throws IOException {
    Path dir = ina3221(root.resolve("hwmon0"));
    write(dir, "in3_enable", 0);
    assertEquals(5.0 * 1.2 + 3.3 * 0.5, watts(meter()), EPS);
  }

  @Test
  void start_symlinkedHwmonDirectories_followedAndPinned() throws IOException {
    Path devices = tmp.resolve("devices/platform/3160000.i2c/i2c-0");
    Path rails = ina3221(devices.resolve("0-0040/hwmon/hwmon1"));
    Path other = ina226(devices.resolve("0-0045/hwmon/hwmon2"));
    symlink(root.resolve("hwmon1"), rails);
    symlink(root.resolve("hwmon2"), other);
    HwmonMeter meter = meter("chip", "ina3221");
    assertEquals(7.83, watts(meter), EPS);

    // The driver is reloaded and hwmon1 now names the other chip: the meter keeps reading the
    // device it was set up for.
    Files.delete(root.resolve("hwmon1"));
    symlink(root.resolve("hwmon1"), other);
    assertEquals(7.83, watts(meter), EPS);
  }

  @Test
  void start_chipName_selectedByNameFile() throws IOException {
    coretemp("hwmon0");
    ina226("hwmon1");
    ina3221(root.resolve("hwmon2"));
    assertEquals(7.83, watts(meter("chip", "ina3221")), EPS);
    assertEquals(14.75, watts(meter("chip", "ina226")), EPS);
  }

  @Test
  void read_severalChipsWithSameName_summed() throws IOException {
    ina3221(root.resolve("hwmon2"));
    ina3221(root.resolve("hwmon10"));
    HwmonMeter meter = meter("chip", "ina3221", "channels", "in1*curr1");
    // natural order: hwmon2 before hwmon10
    assertEquals(List.of("hwmon2 (ina3221) in1*curr1 \"VDD_IN\"",
        "hwmon10 (ina3221) in1*curr1 \"VDD_IN\""), meter.descriptions());
    assertEquals(12.0, watts(meter), EPS);
  }

  @Test
  void read_channelsSetting_selectsPowerFilesAndInCurrPairs() throws IOException {
    ina226("hwmon0");
    ina3221(root.resolve("hwmon1"));
    assertEquals(6.0, watts(meter("chip", "ina3221", "channels", "in1*curr1")), EPS);
    assertEquals(2.25, watts(meter("chip", "ina226", "channels", "power2")), EPS);
    // Without chip, each entry is looked for on every device.
    assertEquals(12.5 + 1.65, watts(meter("channels", " power1 , IN2 * curr2 ")), EPS);
    // The same entry twice is one channel, not double power.
    assertEquals(12.5, watts(meter("channels", "power1,power1")), EPS);
    // in/curr of a chip that has power files too, when asked for by name: 12 V x 1.04 A.
    assertEquals(12.48, watts(meter("chip", "ina226", "channels", "in1*curr1")), EPS);
  }

  @Test
  void read_scale_multipliesSum() throws IOException {
    ina226("hwmon0");
    assertEquals(2 * 14.75, watts(meter("scale", "2")), EPS);
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> meter("scale", "0"));
    assertEquals("fawn.energy.meter.board.scale", e.key());
    assertThrows(InvalidConfigValueException.class, () -> meter("scale", "lots"));
  }

  @Test
  void read_fileDisappears_unreadable() throws IOException {
    Path dir = ina226("hwmon0");
    HwmonMeter meter = meter();
    assertEquals(14.75, watts(meter), EPS);
    Files.delete(dir.resolve("power2_input"));
    MeterException e = assertThrows(MeterException.class, meter::read);
    assertEquals("unreadable", e.causeKey());
    assertTrue(e.getMessage().contains(dir.toRealPath().resolve("power2_input").toString()),
        e.getMessage());
  }

  @Test
  void read_garbageContent_badValueNamingFileAndContent() throws IOException {
    Path dir = ina3221(root.resolve("hwmon0"));
    HwmonMeter meter = meter();
    write(dir, "curr2_input", "5OO");
    MeterException e = assertThrows(MeterException.class, meter::read);
    assertEquals("bad-value", e.causeKey());
    assertTrue(e.getMessage().contains(dir.toRealPath().resolve("curr2_input") + " holds '5OO'"),
        e.getMessage());

    write(dir, "curr2_input", "12\u00073");
    e = assertThrows(MeterException.class, meter::read);
    assertEquals("bad-value", e.causeKey());
    assertTrue(e.getMessage().contains("holds '12?3'"), e.getMessage());
  }

  @Test
  void start_unknownChipName_configErrorListingDevices() {
    coretemp("hwmon0");
    ina226("hwmon1");
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> meter("chip", "ina3221"));
    assertEquals("fawn.energy.meter.board.chip", e.key());
    assertTrue(e.getMessage().contains("'ina3221'"), e.getMessage());
    assertTrue(e.getMessage().contains("hwmon0 (coretemp), hwmon1 (ina226)"), e.getMessage());
  }

  @Test
  void start_chipWithoutPower_configError() {
    coretemp("hwmon0");
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter());
    assertEquals("fawn.energy.meter.board.chip", e.key());
    assertTrue(e.getMessage().contains("hwmon0 (coretemp): no power or in/curr inputs"),
        e.getMessage());
    e = assertThrows(InvalidConfigValueException.class, () -> meter("chip", "coretemp"));
    assertEquals("fawn.energy.meter.board.chip", e.key());
  }

  @Test
  void start_unknownChannel_configErrorListingChannels() {
    ina3221(root.resolve("hwmon0"));
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> meter("channels", "power1"));
    assertEquals("fawn.energy.meter.board.channels", e.key());
    assertTrue(e.getMessage().contains("'power1'"), e.getMessage());
    assertTrue(e.getMessage().contains("hwmon0 (ina3221): in1*curr1, in2*curr2, in3*curr3"),
        e.getMessage());
  }

  @Test
  void start_malformedChannel_configError() {
    ina3221(root.resolve("hwmon0"));
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class,
        () -> meter("channels", "in1+curr1"));
    assertEquals("fawn.energy.meter.board.channels", e.key());
    assertTrue(e.getMessage().contains("'in1+curr1'"), e.getMessage());
  }

  @Test
  void start_missingOrEmptyRoot_configErrorOnRootKey() throws IOException {
    InvalidConfigValueException e = assertThrows(InvalidConfigValueException.class, () -> meter());
    assertEquals("fawn.energy.meter.board.sysfs-root", e.key());
    Files.createDirectories(root);
    e = assertThrows(InvalidConfigValueException.class, () -> meter());
    assertEquals("fawn.energy.meter.board.sysfs-root", e.key());
  }
}
