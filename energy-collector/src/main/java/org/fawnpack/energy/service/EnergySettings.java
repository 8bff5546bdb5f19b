package org.fawnpack.energy.service;

import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.energy.EnergyKeys;

/**
 * The collector's own keys ({@link EnergyKeys}), read and checked in one place. A blank value
 * counts as unset, as in a site file's empty {@code <value/>}.
 */
record EnergySettings(List<String> meters, int sampleIntervalMillis, int meterTimeoutMillis,
    int port, double idleWatts, int historyMaxSamples, boolean historyEnabled, String historyDir,
    String nodeName, int checkpointMillis, boolean nodeHistoryEnabled, int nodeHistoryRollMillis,
    int nodeHistoryKeepHours, int loadPort, String role) {

  static EnergySettings from(Configuration conf) {
    int interval = read(EnergyKeys.SAMPLE_INTERVAL_MS, conf);
    Integer setTimeout = read(EnergyKeys.METER_TIMEOUT_MS, conf);
    int timeout = setTimeout != null ? setTimeout : Math.min(1000, Math.max(interval / 2, 25));
    if (timeout >= interval) {
      throw new InvalidConfigValueException(EnergyKeys.METER_TIMEOUT_MS.name(), timeout,
          "below " + EnergyKeys.SAMPLE_INTERVAL_MS.name() + " = " + interval);
    }
    Double idle = read(EnergyKeys.NODE_IDLE_WATTS, conf);
    String meters = read(EnergyKeys.METERS, conf);
    String nodeName = read(EnergyKeys.NODE_NAME, conf);
    return new EnergySettings(
        meters == null ? List.of()
            : Arrays.stream(meters.split(",")).map(String::trim).filter(m -> !m.isEmpty()).toList(),
        interval,
        timeout,
        read(EnergyKeys.PORT, conf),
        idle == null ? Double.NaN : idle,
        read(EnergyKeys.HISTORY_MAX_SAMPLES, conf),
        read(EnergyKeys.HISTORY_ENABLED, conf),
        read(EnergyKeys.HISTORY_DIR, conf),
        nodeName == null ? "" : nodeName,
        read(EnergyKeys.LEDGER_CHECKPOINT_MS, conf),
        read(EnergyKeys.NODE_HISTORY_ENABLED, conf),
        read(EnergyKeys.NODE_HISTORY_ROLL_MS, conf),
        read(EnergyKeys.NODE_HISTORY_KEEP_HOURS, conf),
        read(EnergyKeys.LOAD_PORT, conf),
        role(conf));
  }

  /** {@code fawn.energy.node.role}, else the rendered host's {@code fawn.configs.role}. */
  private static String role(Configuration conf) {
    String role = read(EnergyKeys.NODE_ROLE, conf);
    if (role == null) {
      String rendered = conf.getTrimmed("fawn.configs.role");
      role = "master".equals(rendered) ? "master" : "slave";
    }
    return role;
  }

  private static <T> T read(ConfigKey<T> key, Configuration conf) {
    String raw = conf.getTrimmed(key.name());
    return raw == null || raw.isEmpty() ? key.defaultValue() : key.parse(raw);
  }
}
