package org.fawnpack.energy.service;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.energy.EnergyConfigException;
import org.fawnpack.energy.meter.ConfigNumbers;
import org.fawnpack.energy.meter.MeterSpec;

/**
 * The collector's own keys ({@code fawn.energy.*}), read and checked in one place. Every key is
 * listed with its default and meaning in docs/energy.md.
 */
record EnergySettings(List<String> meters, int sampleIntervalMillis, int meterTimeoutMillis,
    int port, double idleWatts, int historyMaxSamples, boolean historyEnabled, String historyDir,
    String nodeName, int checkpointMillis) {

  static final String METERS = "fawn.energy.meters";
  static final String SAMPLE_INTERVAL_MS = "fawn.energy.sample-interval-ms";
  static final String METER_TIMEOUT_MS = MeterSpec.METER_TIMEOUT_KEY;
  static final String PORT = "fawn.energy.port";
  static final String IDLE_WATTS = "fawn.energy.node.idle-watts";
  static final String NODE_NAME = "fawn.energy.node.name";
  static final String HISTORY_ENABLED = "fawn.energy.history.enabled";
  static final String HISTORY_DIR = "fawn.energy.history.dir";
  static final String HISTORY_MAX_SAMPLES = "fawn.energy.history.max-samples";
  static final String CHECKPOINT_MS = "fawn.energy.ledger.checkpoint-ms";

  static final int DEFAULT_SAMPLE_INTERVAL_MS = 1000;
  static final String DEFAULT_HISTORY_DIR = "/fawn/energy";

  static EnergySettings from(Configuration conf) {
    int interval = intIn(conf, SAMPLE_INTERVAL_MS, DEFAULT_SAMPLE_INTERVAL_MS, 50, 600_000);
    int timeout = intIn(conf, METER_TIMEOUT_MS, Math.min(1000, Math.max(interval / 2, 25)), 10,
        600_000);
    if (timeout >= interval) {
      throw new EnergyConfigException(METER_TIMEOUT_MS, "must be below " + SAMPLE_INTERVAL_MS + " ("
          + interval + "), was " + timeout);
    }
    String idle = conf.getTrimmed(IDLE_WATTS);
    double idleWatts = Double.NaN;
    if (idle != null && !idle.isEmpty()) {
      try {
        idleWatts = Double.parseDouble(idle);
      } catch (NumberFormatException e) {
        throw new EnergyConfigException(IDLE_WATTS, "must be a number of watts, was '" + idle + "'");
      }
      if (!(idleWatts >= 0) || Double.isInfinite(idleWatts)) {
        throw new EnergyConfigException(IDLE_WATTS, "must be a number of watts >= 0, was " + idle);
      }
    }
    String nodeName = conf.getTrimmed(NODE_NAME, "");
    return new EnergySettings(
        List.of(conf.getTrimmedStrings(METERS)),
        interval,
        timeout,
        intIn(conf, PORT, 0, 0, 65535),
        idleWatts,
        intIn(conf, HISTORY_MAX_SAMPLES, 21_600, 10, 10_000_000),
        conf.getBoolean(HISTORY_ENABLED, true),
        conf.getTrimmed(HISTORY_DIR, DEFAULT_HISTORY_DIR),
        nodeName,
        intIn(conf, CHECKPOINT_MS, 10_000, 100, 3_600_000));
  }

  private static int intIn(Configuration conf, String key, int defaultValue, int min, int max) {
    return ConfigNumbers.intIn(key, conf.getTrimmed(key), defaultValue, min, max);
  }

}
