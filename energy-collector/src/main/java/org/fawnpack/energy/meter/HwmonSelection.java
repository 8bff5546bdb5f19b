package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Turns the keys {@code sysfs-root}, {@code chip} and {@code channels} into the list of channels
 * an {@link HwmonMeter} sums. Runs once, at construction, so a selection that matches nothing
 * stops the NodeManager with a message that lists what the node does have.
 */
final class HwmonSelection {
  static final String ROOT = "sysfs-root";
  static final String CHIP = "chip";
  static final String CHANNELS = "channels";
  static final String DEFAULT_ROOT = "/sys/class/hwmon";

  private HwmonSelection() {
  }

  static List<HwmonChannel> resolve(MeterSpec spec) {
    List<HwmonChip> all = scan(spec);
    List<HwmonChip> chips = matchChips(spec, all);
    List<String> selectors = spec.getList(CHANNELS);
    return selectors.isEmpty() ? defaults(spec, chips, all) : explicit(spec, selectors, chips);
  }

  private static List<HwmonChip> scan(MeterSpec spec) {
    String rootValue = spec.get(ROOT, DEFAULT_ROOT);
    Path root = Paths.get(rootValue);
    if (!Files.isDirectory(root)) {
      throw new EnergyConfigException(spec.key(ROOT), "is not a directory: '" + rootValue + "'");
    }
    List<HwmonChip> chips = new ArrayList<>();
    try (Stream<Path> entries = Files.list(root)) {
      List<Path> dirs = entries.filter(Files::isDirectory)
          .sorted(Comparator.comparing(p -> p.getFileName().toString(), SysfsFiles.NATURAL_ORDER))
          .toList();
      for (Path dir : dirs) {
        chips.add(HwmonChip.scan(dir));
      }
    } catch (IOException e) {
      throw new EnergyConfigException(spec.key(ROOT), "'" + rootValue + "' cannot be listed: " + e);
    }
    if (chips.isEmpty()) {
      throw new EnergyConfigException(spec.key(ROOT), "'" + rootValue + "' holds no hwmon "
          + "devices (no sensor driver loaded?)");
    }
    return chips;
  }

  private static List<HwmonChip> matchChips(MeterSpec spec, List<HwmonChip> all) {
    String wanted = spec.get(CHIP, null);
    if (wanted == null) {
      return all;
    }
    List<HwmonChip> chips = all.stream().filter(c -> c.name().equals(wanted)).toList();
    if (chips.isEmpty()) {
      throw new EnergyConfigException(spec.key(CHIP), "'" + wanted + "' matches no hwmon device "
          + "name; found " + all.stream().map(HwmonChip::describe).collect(Collectors.joining(", ")));
    }
    return chips;
  }

  private static List<HwmonChannel> defaults(MeterSpec spec, List<HwmonChip> chips,
      List<HwmonChip> all) {
    List<HwmonChannel> channels = new ArrayList<>();
    chips.forEach(chip -> channels.addAll(chip.defaultChannels()));
    if (channels.isEmpty()) {
      String wanted = spec.get(CHIP, null);
      throw new EnergyConfigException(spec.key(CHIP), (wanted == null ? "(unset: every device)"
          : "'" + wanted + "'") + " matches no enabled power<N>_input or in<N>_input with "
          + "curr<N>_input; found " + inventory(all));
    }
    return channels;
  }

  private static List<HwmonChannel> explicit(MeterSpec spec, List<String> selectors,
      List<HwmonChip> chips) {
    List<HwmonChannel> channels = new ArrayList<>();
    for (String text : selectors) {
      HwmonSelector selector = HwmonSelector.parse(text, spec.key(CHANNELS));
      boolean matched = false;
      for (HwmonChip chip : chips) {
        HwmonChannel channel = selector.on(chip);
        if (channel != null) {
          matched = true;
          if (!channels.contains(channel)) { // "power1, power1" must not count it twice
            channels.add(channel);
          }
        }
      }
      if (!matched) {
        throw new EnergyConfigException(spec.key(CHANNELS), "entry '" + text + "' matches no "
            + "input of the selected devices; found " + inventory(chips));
      }
    }
    return channels;
  }

  private static String inventory(List<HwmonChip> chips) {
    return chips.stream().map(HwmonChip::inventory).collect(Collectors.joining("; "));
  }
}
