package org.fawnpack.energy.meter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.energy.cpu.CpuUtilisation;
import org.junit.jupiter.api.Test;

class ModelMeterTest {
  private static final String IDLE = "fawn.energy.meter.model.idle-watts";
  private static final String BUSY = "fawn.energy.meter.model.busy-watts";

  /** Returns the queued utilisations, one per call. */
  private static final class Scripted implements CpuUtilisation {
    final Deque<Double> values = new ArrayDeque<>();

    @Override
    public double sinceLastCall() {
      return values.removeFirst();
    }
  }

  private static MeterSpec spec(String idle, String busy) {
    Configuration conf = new Configuration(false);
    if (idle != null) {
      conf.set(IDLE, idle);
    }
    if (busy != null) {
      conf.set(BUSY, busy);
    }
    return new MeterSpec("model", conf);
  }

  @Test
  void read_utilisation_interpolatesIdleToBusyAsEstimate() throws IOException {
    Scripted cpu = new Scripted();
    ModelMeter meter = new ModelMeter(spec("52", "109"), cpu); // Dell R620, FAWN paper
    assertEquals("model", meter.name());
    cpu.values.addAll(java.util.List.of(Double.NaN, 0.0, 0.5, 1.0));
    MeterReading first = meter.read();
    assertEquals(MeterReading.estimatedWatts(52), first, "first call: idle");
    assertTrue(first.estimated());
    assertEquals(MeterReading.Kind.POWER_WATTS, first.kind());
    assertEquals(52.0, meter.read().value(), 1e-9);
    assertEquals(80.5, meter.read().value(), 1e-9);
    assertEquals(109.0, meter.read().value(), 1e-9);
  }

  @Test
  void read_utilisationOutOfRange_clampedToZeroOne() throws IOException {
    Scripted cpu = new Scripted();
    ModelMeter meter = new ModelMeter(spec("1.40", "1.68"), cpu); // Edison + USB Ethernet
    cpu.values.addAll(java.util.List.of(-0.2, 1.7, 0.5));
    assertEquals(1.40, meter.read().value(), 1e-12);
    assertEquals(1.68, meter.read().value(), 1e-12);
    assertEquals(1.54, meter.read().value(), 1e-12);
  }

  @Test
  void read_idleEqualsBusy_constant() throws IOException {
    Scripted cpu = new Scripted();
    cpu.values.add(0.9);
    assertEquals(3.0, new ModelMeter(spec("3", "3"), cpu).read().value(), 1e-12);
  }

  @Test
  void create_figureMissing_refused() {
    assertEquals(IDLE, configError(null, "109").key());
    assertEquals(BUSY, configError("52", null).key());
    assertEquals(BUSY, configError("52", "  ").key());
  }

  @Test
  void create_badFigures_refused() {
    assertEquals(IDLE, configError("fifty", "109").key());
    assertEquals(BUSY, configError("52", "NaN").key());
    assertEquals(IDLE, configError("-1", "109").key());
    InvalidConfigValueException e = configError("109", "52");
    assertEquals(BUSY, e.key());
    assertTrue(e.getMessage().contains("52"), e.getMessage());
    assertTrue(e.getMessage().contains(IDLE), e.getMessage());
  }

  @Test
  void read_utilisationReadFails_throwsMeterException() {
    ModelMeter meter = new ModelMeter(spec("1", "2"), () -> {
      throw new IOException("/proc/stat: no such file");
    });
    MeterException e = assertThrows(MeterException.class, meter::read);
    assertEquals("cpu-utilisation", e.causeKey());
  }

  private static InvalidConfigValueException configError(String idle, String busy) {
    return assertThrows(InvalidConfigValueException.class,
        () -> new ModelMeter(spec(idle, busy), new Scripted()));
  }
}
