package org.fawnpack.energy.meter;

import java.io.IOException;
import java.nio.file.Path;

/** One power channel of an hwmon device: what is read and summed each second, in microwatts. */
sealed interface HwmonChannel permits HwmonChannel.Power, HwmonChannel.VoltageTimesCurrent {

  /** For logs and errors, e.g. {@code hwmon1 (ina3221) in1*curr1 "VDD_IN"}. */
  String description();

  long microwatts(SysfsLongReader reader) throws MeterException;

  /** {@code power<N>_input}: the hwmon ABI gives power in microwatts. */
  record Power(String description, Path input) implements HwmonChannel {
    @Override
    public long microwatts(SysfsLongReader reader) throws MeterException {
      return read(reader, input);
    }
  }

  /**
   * {@code in<N>_input} times {@code curr<N>_input}, for chips such as the INA3221 that measure
   * bus voltage and current but leave the product to the host: millivolts times milliamps is
   * microwatts.
   */
  record VoltageTimesCurrent(String description, Path voltage, Path current)
      implements HwmonChannel {
    @Override
    public long microwatts(SysfsLongReader reader) throws MeterException {
      return read(reader, voltage) * read(reader, current);
    }
  }

  private static long read(SysfsLongReader reader, Path file) throws MeterException {
    try {
      return reader.read(file);
    } catch (MeterException e) {
      throw e;
    } catch (IOException e) {
      throw SysfsFiles.unreadable(file, e);
    }
  }
}
