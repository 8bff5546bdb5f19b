package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** One hwmon device as found when the meter is built: its name and its power-related inputs. */
final class HwmonChip {
  private static final Pattern INPUT = Pattern.compile("(power|in|curr)(\\d+)_input");

  /**
   * The INA3221 driver numbers its three rails 1..3; in4..in6 are shunt voltages, in7 their sum
   * and curr4 the sum of the currents, so pairing in4 with curr4 would invent a fourth rail.
   */
  private static final String INA3221 = "ina3221";
  private static final int INA3221_RAILS = 3;

  private final String entry;
  private final Path dir;
  private final String name;
  private final SortedSet<Integer> power = new TreeSet<>();
  private final SortedSet<Integer> voltage = new TreeSet<>();
  private final SortedSet<Integer> current = new TreeSet<>();

  private HwmonChip(String entry, Path dir, String name) {
    this.entry = entry;
    this.dir = dir;
    this.name = name;
  }

  /**
   * Reads the device behind {@code /sys/class/hwmon/hwmonN}. The symlink is resolved now: hwmon
   * numbers are handed out again when a driver is reloaded, and the meter must then fail rather
   * than quietly read whichever device took its number.
   */
  static HwmonChip scan(Path entry) throws IOException {
    Path dir = entry.toRealPath();
    String name = SysfsFiles.readTextOrNull(dir.resolve("name"));
    HwmonChip chip = new HwmonChip(entry.getFileName().toString(), dir, name == null ? "" : name);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        Matcher m = INPUT.matcher(file.getFileName().toString());
        if (m.matches()) {
          chip.numbers(m.group(1)).add(Integer.valueOf(m.group(2)));
        }
      }
    }
    return chip;
  }

  String name() {
    return name;
  }

  /** {@code hwmon1 (ina3221)}. */
  String describe() {
    return entry + " (" + (name.isEmpty() ? "no name" : name) + ")";
  }

  boolean hasPower(int n) {
    return power.contains(n);
  }

  boolean hasPair(int in, int curr) {
    return voltage.contains(in) && current.contains(curr);
  }

  HwmonChannel power(int n) {
    String sensor = "power" + n;
    return new HwmonChannel.Power(describe() + " " + sensor + label(sensor), input(sensor));
  }

  HwmonChannel pair(int in, int curr) {
    String sensor = "in" + in;
    return new HwmonChannel.VoltageTimesCurrent(describe() + " " + sensor + "*curr" + curr
        + label(sensor), input(sensor), input("curr" + curr));
  }

  /**
   * What the meter sums when {@code channels} is unset: every power input, or, on a chip with
   * none, every in/curr pair of the same number. Inputs the driver reports as disabled
   * ({@code <sensor>_enable} = 0, e.g. an unused INA3221 rail, which only answers ENODATA) are
   * left out.
   */
  List<HwmonChannel> defaultChannels() {
    List<HwmonChannel> channels = new ArrayList<>();
    for (int n : power) {
      if (enabled("power" + n)) {
        channels.add(power(n));
      }
    }
    if (channels.isEmpty()) {
      for (int n : pairNumbers()) {
        if (enabled("in" + n) && enabled("curr" + n)) {
          channels.add(pair(n, n));
        }
      }
    }
    return channels;
  }

  /** What a user could select, for error messages: {@code power1, in1*curr1}. */
  String inventory() {
    List<String> found = new ArrayList<>();
    power.forEach(n -> found.add("power" + n));
    pairNumbers().forEach(n -> found.add("in" + n + "*curr" + n));
    return describe() + ": " + (found.isEmpty() ? "no power or in/curr inputs"
        : String.join(", ", found));
  }

  private List<Integer> pairNumbers() {
    List<Integer> pairs = new ArrayList<>();
    for (int n : voltage) {
      if (current.contains(n) && (!name.equals(INA3221) || n <= INA3221_RAILS)) {
        pairs.add(n);
      }
    }
    return pairs;
  }

  private SortedSet<Integer> numbers(String kind) {
    return switch (kind) {
      case "power" -> power;
      case "in" -> voltage;
      default -> current;
    };
  }

  private Path input(String sensor) {
    return dir.resolve(sensor + "_input");
  }

  private boolean enabled(String sensor) {
    return !"0".equals(SysfsFiles.readTextOrNull(dir.resolve(sensor + "_enable")));
  }

  /** The board's name for a rail ({@code in1_label} = VDD_IN), which tells rails apart. */
  private String label(String sensor) {
    String label = SysfsFiles.readTextOrNull(dir.resolve(sensor + "_label"));
    return label == null || label.isEmpty() ? "" : " \"" + label + "\"";
  }
}
