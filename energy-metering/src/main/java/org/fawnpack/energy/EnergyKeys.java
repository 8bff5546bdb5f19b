package org.fawnpack.energy;

import java.util.List;
import org.fawnpack.conf.ConfigKey;

/**
 * The {@code fawn.energy.*} keys with fixed names: the collector's (in the NodeManager's
 * yarn-site.xml or the aux-services manifest) and the job side's. The profile renderer, the
 * validator and the embedded cluster write and read them through these constants. Each meter's
 * own keys ({@code fawn.energy.meter.<name>.<option>}) are named by {@link #meterKey}; the
 * meters document and check their options themselves.
 */
public final class EnergyKeys {

  public static final ConfigKey<String> METERS = ConfigKey.stringKey("fawn.energy.meters", null,
      "comma-separated meter names", v -> true, "Comma list of meter names. The node's power is"
      + " the sum of its meters (\u00d7 each one's share). Unset or empty: no power, every sample"
      + " a gap.");

  public static final ConfigKey<Integer> SAMPLE_INTERVAL_MS = ConfigKey.intKey(
      "fawn.energy.sample-interval-ms", 1000, 50, 600_000, "Sampling period. A task's query also"
      + " takes a fresh sample, so its last seconds count.");

  public static final ConfigKey<Integer> METER_TIMEOUT_MS = ConfigKey.optionalIntKey(
      "fawn.energy.meter-timeout-ms", 10, 600_000, "How long a sample waits for each meter"
      + " (meters are read in parallel); must be below the interval. Unset: half the interval,"
      + " at least 25 and at most 1000. A meter still busy from an earlier sample is not asked"
      + " again until it answers. An `snmp-pdu` meter whose own timeouts (`timeout-ms` \u00d7"
      + " (`retries` + 1)) exceed it is disabled at start, with both keys named.");

  public static final ConfigKey<Double> NODE_IDLE_WATTS = ConfigKey.optionalDoubleKey(
      "fawn.energy.node.idle-watts", 0, 1_000_000, "Idle power of the node, the part of each"
      + " interval split by allocation rather than CPU time. Set it from the node's profile."
      + " Unset: the lowest interval power seen since start.");

  public static final ConfigKey<String> NODE_NAME = ConfigKey.stringKey("fawn.energy.node.name",
      null, "Name in history files (`<name>.csv`). Unset: the host name (`<host>-2`, `-3`, ..."
      + " for further collectors in the same JVM, as in mini clusters).");

  public static final ConfigKey<String> NODE_ROLE = ConfigKey.stringKey("fawn.energy.node.role",
      null, "master or slave", v -> v.equals("master") || v.equals("slave"), "`master` or"
      + " `slave`, written in the node's history: a job's cluster energy counts the slaves and"
      + " shows the master apart, as the papers do. Unset: `fawn.configs.role` (which `fawn"
      + " profile render` writes in every host's yarn-site.xml), else `slave`.");

  public static final ConfigKey<Integer> PORT = ConfigKey.intKey("fawn.energy.port", 0, 0, 65535,
      "Loopback port of the query protocol; 0 = any free port. Tasks learn it from the"
      + " service's metadata.");

  public static final ConfigKey<Boolean> HISTORY_ENABLED = ConfigKey.booleanKey(
      "fawn.energy.history.enabled", true, "Write each application's history file when it"
      + " stops.");

  public static final ConfigKey<String> HISTORY_DIR = ConfigKey.stringKey(
      "fawn.energy.history.dir", "/fawn/energy", "Where on the default file system:"
      + " `<dir>/<appId>/<node>.csv` (`<node>-2.csv`, ... when NodeManagers share a host).");

  public static final ConfigKey<Integer> HISTORY_MAX_SAMPLES = ConfigKey.intKey(
      "fawn.energy.history.max-samples", 21_600, 10, 10_000_000, "Samples kept in memory for"
      + " history files (21600 = 6 h at 1 Hz); an application running longer gets its last"
      + " ones.");

  public static final ConfigKey<Boolean> NODE_HISTORY_ENABLED = ConfigKey.booleanKey(
      "fawn.energy.node-history.enabled", true, "Write the node's own history, busy or idle:"
      + " every sample, in segments `<history dir>/nodes/<node>/<first sample ms>.csv`. What"
      + " `fawn energy report` sums into a job's cluster energy.");

  public static final ConfigKey<Integer> NODE_HISTORY_ROLL_MS = ConfigKey.intKey(
      "fawn.energy.node-history.roll-ms", 60_000, 100, 86_400_000, "How often the node's"
      + " history is written out as a new segment (and once more when the NodeManager stops);"
      + " a report asked for sooner after a job's end shows the nodes whose history does not"
      + " reach it yet.");

  public static final ConfigKey<Integer> NODE_HISTORY_KEEP_HOURS = ConfigKey.intKey(
      "fawn.energy.node-history.keep-hours", 168, 1, 87_600, "Segments of the node's history"
      + " older than this are deleted by the collector that wrote them.");

  public static final ConfigKey<Integer> LOAD_PORT = ConfigKey.intKey("fawn.energy.load.port",
      18_042, 1, 65_535, "UDP port on which the collectors of a meter shared by load"
      + " (`fawn.energy.meter.<m>.share=load`) tell one another their hosts' CPU use each"
      + " sample; the same on every host of the meter (a `.hosts` entry may name another as"
      + " host:port). Opened only when such a meter is configured.");

  public static final ConfigKey<Integer> LEDGER_CHECKPOINT_MS = ConfigKey.intKey(
      "fawn.energy.ledger.checkpoint-ms", 10_000, 100, 3_600_000, "Ledger checkpoint period"
      + " under NodeManager recovery.");

  /** The collector's keys, in the order of the reference table. */
  public static final List<ConfigKey<?>> COLLECTOR_KEYS = List.of(METERS, SAMPLE_INTERVAL_MS,
      METER_TIMEOUT_MS, NODE_IDLE_WATTS, NODE_NAME, NODE_ROLE, PORT, HISTORY_ENABLED, HISTORY_DIR,
      HISTORY_MAX_SAMPLES, NODE_HISTORY_ENABLED, NODE_HISTORY_ROLL_MS, NODE_HISTORY_KEEP_HOURS,
      LOAD_PORT, LEDGER_CHECKPOINT_MS);

  public static final ConfigKey<Boolean> METERING = ConfigKey.booleanKey("fawn.energy.metering",
      true, "Whether the pack's jobs call `EnergyMetering.enable` (drivers that honour it: every"
      + " job in fawn-jobs.jar).");

  public static final ConfigKey<Integer> CLIENT_TIMEOUT_MS = ConfigKey.intKey(
      "fawn.energy.client.timeout-ms", 5000, 1, 600_000, "How long a task waits for its"
      + " collector's answer before it counts itself unmetered.");

  public static final ConfigKey<Integer> CLIENT_RESTART_WAIT_MS = ConfigKey.intKey(
      "fawn.energy.client.restart-wait-ms", 30_000, 0, 600_000, "How long a task whose collector"
      + " refuses the connection (its NodeManager restarting; the collector keeps its port) keeps"
      + " asking, once a second, before it counts itself unmetered; after such a refusal, an"
      + " answer of 'unknown container' (the NodeManager has not yet told the restarted collector"
      + " of the container) is asked again within the same wait. 0: it asks once.");

  public static final ConfigKey<String> METERING_OUTPUT_FORMAT = ConfigKey.stringKey(
      "fawn.energy.metering.output-format", null, "The job's real output format behind the"
      + " metering wrapper; set by `EnergyMetering.enable`.");

  /** The job side's keys, in the order of the reference table. */
  public static final List<ConfigKey<?>> JOB_KEYS =
      List.of(METERING, CLIENT_TIMEOUT_MS, CLIENT_RESTART_WAIT_MS, METERING_OUTPUT_FORMAT);

  /** Every fixed key. */
  public static final List<ConfigKey<?>> KEYS = concat(COLLECTOR_KEYS, JOB_KEYS);

  /** Prefix of each meter's own keys. */
  public static final String METER_PREFIX = "fawn.energy.meter.";

  private EnergyKeys() {}

  /** {@code fawn.energy.meter.<meter>.<option>}. */
  public static String meterKey(String meter, String option) {
    return METER_PREFIX + meter + "." + option;
  }

  private static List<ConfigKey<?>> concat(List<ConfigKey<?>> a, List<ConfigKey<?>> b) {
    java.util.ArrayList<ConfigKey<?>> all = new java.util.ArrayList<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }
}
