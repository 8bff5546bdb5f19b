package org.fawnpack.energy.meter;

import java.io.IOException;
import java.util.Locale;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Power from a bench DC supply that speaks SCPI over TCP: Rigol DP800, Keysight E36xx, Siglent
 * SPD on port 5025, or an RS-232 supply behind ser2net. In mode {@code volt-curr} it asks for the
 * output voltage and current and multiplies them; in mode {@code power} it asks for watts.
 *
 * <pre>
 * fawn.energy.meters = psu
 * fawn.energy.meter.psu.type = scpi
 * fawn.energy.meter.psu.address = 192.168.1.50        (port 5025 unless given)
 * fawn.energy.meter.psu.volt-query = MEAS:VOLT? CH1   (optional)
 * </pre>
 *
 * <p>One connection stays open across reads, because a LAN instrument takes far longer to accept
 * a connection than to answer a query. After any failure the connection is closed (a late reply
 * would otherwise be taken as the answer to the next query) and the next read opens a new one.
 * Failures are {@link MeterException}s keyed "unreachable", "timeout", "disconnected" or
 * "bad-response". One whole read, connect included, takes at most {@code timeout-ms}.
 */
public final class ScpiMeter implements PowerMeter {
  public static final String TYPE = "scpi";

  public static final String ADDRESS = "address";
  public static final int DEFAULT_PORT = 5025;
  public static final String MODE = "mode";
  public static final String MODE_VOLT_CURR = "volt-curr";
  public static final String MODE_POWER = "power";
  public static final String DEFAULT_MODE = MODE_VOLT_CURR;
  public static final String VOLT_QUERY = "volt-query";
  public static final String DEFAULT_VOLT_QUERY = "MEAS:VOLT?";
  public static final String CURR_QUERY = "curr-query";
  public static final String DEFAULT_CURR_QUERY = "MEAS:CURR?";
  public static final String POWER_QUERY = "power-query";
  public static final String DEFAULT_POWER_QUERY = "MEAS:POW?";
  public static final String TIMEOUT_MS = "timeout-ms";
  public static final int DEFAULT_TIMEOUT_MS = 1000;
  public static final int MAX_TIMEOUT_MS = 60_000;

  /**
   * SCPI's "not a number" (IEEE 488.2 sends 9.91E+37); also the edge of its overflow range,
   * where the instrument is saying "out of range" rather than giving a reading.
   */
  private static final double SCPI_NAN_OR_OVERFLOW = 9.9e37;

  private static final Logger LOG = LoggerFactory.getLogger(ScpiMeter.class);

  private final String name;
  private final TcpMeterAddress address;
  private final boolean powerMode;
  private final String voltQuery;
  private final String currQuery;
  private final String powerQuery;
  private final int timeoutMs;

  /** Serialises reads; {@link #close()} does not take it, so it can unblock a stuck read. */
  private final Object readLock = new Object();
  private volatile ScpiConnection connection;
  private volatile boolean closed;

  /**
   * Reads and validates {@code fawn.energy.meter.<name>.*}.
   *
   * @throws EnergyConfigException naming the key and value of the first bad setting
   */
  public ScpiMeter(MeterSpec spec) {
    this.name = spec.name();
    this.address = TcpMeterAddress.parse(spec.key(ADDRESS), spec.require(ADDRESS), DEFAULT_PORT);
    String mode = spec.get(MODE, DEFAULT_MODE).toLowerCase(Locale.ROOT);
    if (!mode.equals(MODE_VOLT_CURR) && !mode.equals(MODE_POWER)) {
      throw new EnergyConfigException(spec.key(MODE), "must be " + MODE_VOLT_CURR + " or "
          + MODE_POWER + ", was '" + spec.get(MODE, "") + "'");
    }
    this.powerMode = mode.equals(MODE_POWER);
    this.voltQuery = query(spec, VOLT_QUERY, DEFAULT_VOLT_QUERY);
    this.currQuery = query(spec, CURR_QUERY, DEFAULT_CURR_QUERY);
    this.powerQuery = query(spec, POWER_QUERY, DEFAULT_POWER_QUERY);
    this.timeoutMs = spec.getInt(TIMEOUT_MS, DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS);
    if (powerMode) {
      warnIfUnused(spec, VOLT_QUERY, mode);
      warnIfUnused(spec, CURR_QUERY, mode);
    } else {
      warnIfUnused(spec, POWER_QUERY, mode);
    }
  }

  /** A query must be one printable ASCII line and ask something, or the supply never answers. */
  private static String query(MeterSpec spec, String setting, String defaultQuery) {
    String query = spec.get(setting, defaultQuery);
    if (query.chars().anyMatch(c -> c < 0x20 || c > 0x7e)) {
      throw new EnergyConfigException(spec.key(setting), "must be printable ASCII on one line, was '"
          + ReplyText.printable(query) + "'");
    }
    if (query.indexOf('?') < 0) {
      throw new EnergyConfigException(spec.key(setting), "must be a SCPI query (with '?'), was '"
          + query + "'");
    }
    return query;
  }

  private static void warnIfUnused(MeterSpec spec, String setting, String mode) {
    if (spec.get(setting, null) != null) {
      LOG.warn("{} is ignored: meter '{}' is in mode {}", spec.key(setting), spec.name(), mode);
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MeterReading read() throws IOException {
    synchronized (readLock) {
      MeterDeadline deadline = MeterDeadline.after(timeoutMs);
      try {
        ScpiConnection open = openConnection(deadline);
        double watts = powerMode
            ? ask(open, powerQuery, deadline)
            : ask(open, voltQuery, deadline) * ask(open, currQuery, deadline);
        return MeterReading.watts(watts);
      } catch (MeterException e) {
        disconnect();
        throw e;
      }
    }
  }

  private ScpiConnection openConnection(MeterDeadline deadline) throws MeterException {
    if (closed) {
      throw new MeterException("closed", "meter '" + name + "' is closed");
    }
    ScpiConnection open = connection;
    if (open == null) {
      open = ScpiConnection.open(address, deadline);
      connection = open;
      LOG.debug("Meter '{}' connected to SCPI supply at {}", name, address);
      if (closed) { // close() ran while we connected; do not leak the socket
        throw new MeterException("closed", "meter '" + name + "' is closed");
      }
    }
    return open;
  }

  private double ask(ScpiConnection open, String query, MeterDeadline deadline)
      throws MeterException {
    String reply = open.query(query, deadline);
    OptionalDouble value = ReplyText.decimal(reply);
    if (value.isEmpty() || Math.abs(value.getAsDouble()) >= SCPI_NAN_OR_OVERFLOW) {
      throw new MeterException("bad-response", "reply '" + ReplyText.printable(reply) + "' to '"
          + query + "' from " + address + " is not a reading");
    }
    return value.getAsDouble();
  }

  private void disconnect() {
    ScpiConnection open = connection;
    connection = null;
    if (open != null) {
      open.close();
    }
  }

  @Override
  public void close() {
    closed = true;
    disconnect();
  }
}
