package org.fawnpack.energy.meter;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Power from Linux hwmon sensors ({@code /sys/class/hwmon/hwmon*}): the sum of the selected
 * {@code power<N>_input} files (microwatts), or of {@code in<N>_input} (mV) times
 * {@code curr<N>_input} (mA) on chips such as the INA3221 that give no power file.
 *
 * <p>Keys {@code fawn.energy.meter.<name>.}: {@code sysfs-root}, {@code chip}, {@code channels},
 * {@code scale}; see docs/energy-meters-sysfs.md. Devices and channels are chosen once, here;
 * each {@link #read()} only reads files.
 */
public final class HwmonMeter implements PowerMeter {
  private static final Logger LOG = LoggerFactory.getLogger(HwmonMeter.class);
  static final String SCALE = "scale";
  private static final double MICRO = 1e-6;

  private final String name;
  private final List<HwmonChannel> channels;
  private final double scale;
  private final SysfsLongReader reader;

  public HwmonMeter(MeterSpec spec) {
    this(spec, SysfsLongReader.FILES);
  }

  HwmonMeter(MeterSpec spec, SysfsLongReader reader) {
    this.name = spec.name();
    this.reader = reader;
    this.scale = spec.getDouble(SCALE, 1.0);
    if (scale <= 0) {
      throw new EnergyConfigException(spec.key(SCALE), "must be greater than 0, was '"
          + spec.get(SCALE, null) + "'");
    }
    this.channels = HwmonSelection.resolve(spec);
    // The sum of every channel is only right when no channel includes another (a board's input
    // rail includes its CPU rail), so say exactly what is summed.
    LOG.info("hwmon meter '{}' sums {} channel(s), scale {}: {}", name, channels.size(), scale,
        descriptions());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MeterReading read() throws MeterException {
    long microwatts = 0;
    for (HwmonChannel channel : channels) {
      microwatts += channel.microwatts(reader);
    }
    return MeterReading.watts(microwatts * MICRO * scale);
  }

  /** What is summed, in order, e.g. {@code hwmon1 (ina3221) in1*curr1 "VDD_IN"}. */
  List<String> descriptions() {
    return channels.stream().map(HwmonChannel::description).toList();
  }
}
