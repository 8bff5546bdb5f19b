package org.fawnpack.energy.service;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.fawnpack.energy.meter.MeterException;
import org.fawnpack.energy.meter.MeterReading;
import org.fawnpack.energy.meter.MeterSpec;
import org.fawnpack.energy.meter.PowerMeter;

/**
 * A custom meter as a user would write one (public class, public {@code (MeterSpec)}
 * constructor): the power is whatever number the file {@code fawn.energy.meter.<name>.file} holds,
 * so a test controls the node's watts by rewriting the file.
 */
public class FileWattsMeter implements PowerMeter {
  private final String name;
  private final Path file;

  public FileWattsMeter(MeterSpec spec) {
    this.name = spec.name();
    this.file = Paths.get(spec.require("file"));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MeterReading read() throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8).trim();
    try {
      return MeterReading.watts(Double.parseDouble(text));
    } catch (NumberFormatException e) {
      throw new MeterException("bad-file", file + " holds '" + text + "'");
    }
  }
}
