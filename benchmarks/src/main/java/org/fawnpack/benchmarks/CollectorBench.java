package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.EnergyKeys;

/** What the energy benchmark's parts share: the collector's settings, waiting for it, cleanup. */
final class CollectorBench {

  static final long POLL_MILLIS = 250;

  private CollectorBench() {}

  /**
   * The Edison power model (1.40 W idle, 1.68 W busy) sampled at 1 Hz, no history files;
   * {@code utilisation} host or containers.
   */
  static Map<String, String> modelMeter(String utilisation) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(EnergyKeys.METERS.name(), "model");
    settings.put(EnergyKeys.meterKey("model", "idle-watts"), "1.40");
    settings.put(EnergyKeys.meterKey("model", "busy-watts"), "1.68");
    settings.put(EnergyKeys.meterKey("model", "utilisation"), utilisation);
    settings.put(EnergyKeys.SAMPLE_INTERVAL_MS.name(), "1000");
    settings.put(EnergyKeys.HISTORY_ENABLED.name(), "false");
    return settings;
  }

  /** Waits until the collector has booked {@code samples} intervals for the container. */
  static void awaitBooked(CollectorClient client, String containerId, long samples,
      Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (client.containerEnergy(containerId).samples() < samples) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("collector booked fewer than " + samples
            + " samples for " + containerId + " in " + timeout);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }
}
