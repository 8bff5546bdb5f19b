package org.fawnpack.energy.meter;

import java.io.IOException;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Power drawn through a UPS, from apcupsd's Network Information Server: {@code LOADPCT / 100 ×
 * NOMPOWER} watts. The UPS reports its load as a percentage of its rating, rounded and often
 * measured coarsely, so the reading is marked {@linkplain MeterReading#estimatedWatts estimated}.
 *
 * <pre>
 * fawn.energy.meters = ups
 * fawn.energy.meter.ups.type = apcupsd
 * fawn.energy.meter.ups.address = localhost:3551     (the default)
 * fawn.energy.meter.ups.nominal-watts = 865          (when the UPS does not report NOMPOWER)
 * </pre>
 *
 * <p>{@code nominal-watts}, when set, wins over the UPS's NOMPOWER: some models report the VA
 * rating or nothing there. Failures are {@link MeterException}s keyed "unreachable", "timeout",
 * "disconnected" or "bad-response" (a field missing, not a number, or the UPS lost to apcupsd).
 */
public final class ApcupsdMeter implements PowerMeter {
  public static final String TYPE = "apcupsd";

  public static final String ADDRESS = "address";
  public static final String DEFAULT_ADDRESS = "localhost:3551";
  public static final int DEFAULT_PORT = 3551;
  public static final String NOMINAL_WATTS = "nominal-watts";
  public static final String TIMEOUT_MS = "timeout-ms";
  public static final int DEFAULT_TIMEOUT_MS = 1000;
  public static final int MAX_TIMEOUT_MS = 60_000;

  static final String LOADPCT = "LOADPCT";
  static final String NOMPOWER = "NOMPOWER";
  static final String STATUS = "STATUS";

  private final String name;
  private final TcpMeterAddress address;
  /** NaN when not configured: then NOMPOWER from the UPS is used. */
  private final double nominalWatts;
  private final String nominalWattsKey;
  private final int timeoutMs;

  /**
   * Reads and validates {@code fawn.energy.meter.<name>.*}.
   *
   * @throws EnergyConfigException naming the key and value of the first bad setting
   */
  public ApcupsdMeter(MeterSpec spec) {
    this.name = spec.name();
    this.address = TcpMeterAddress.parse(spec.key(ADDRESS), spec.get(ADDRESS, DEFAULT_ADDRESS),
        DEFAULT_PORT);
    this.nominalWattsKey = spec.key(NOMINAL_WATTS);
    this.nominalWatts = spec.getDouble(NOMINAL_WATTS, Double.NaN);
    if (nominalWatts <= 0) {
      throw new EnergyConfigException(nominalWattsKey, "must be more than 0 watts, was '"
          + spec.get(NOMINAL_WATTS, "") + "'");
    }
    this.timeoutMs = spec.getInt(TIMEOUT_MS, DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MeterReading read() throws IOException {
    Map<String, String> status = ApcupsdNisClient.status(address, MeterDeadline.after(timeoutMs));
    String upsStatus = status.getOrDefault(STATUS, "");
    if (upsStatus.contains("COMMLOST")) {
      // apcupsd still serves its last values then; they are not today's load.
      throw new MeterException("bad-response", "apcupsd at " + address
          + " has lost contact with the UPS (STATUS " + upsStatus + ")");
    }
    double loadPercent = field(status, LOADPCT, "");
    double watts = Double.isNaN(nominalWatts)
        ? field(status, NOMPOWER, "; set " + nominalWattsKey + " to the UPS's rating in watts")
        : nominalWatts;
    if (watts <= 0) {
      throw new MeterException("bad-response", "apcupsd at " + address + " reports " + NOMPOWER
          + " '" + status.get(NOMPOWER) + "'; set " + nominalWattsKey
          + " to the UPS's rating in watts");
    }
    return MeterReading.estimatedWatts(loadPercent / 100.0 * watts);
  }

  /** The number that starts field {@code key} ("23.0 Percent" → 23.0). */
  private double field(Map<String, String> status, String key, String advice)
      throws MeterException {
    String value = status.get(key);
    if (value == null) {
      throw new MeterException("bad-response", "status from apcupsd at " + address + " has no "
          + key + advice);
    }
    String[] words = value.split("\\s+", 2);
    OptionalDouble number = ReplyText.decimal(words[0]);
    if (number.isEmpty()) {
      throw new MeterException("bad-response", "status from apcupsd at " + address + " has "
          + key + " '" + ReplyText.printable(value) + "', not a number" + advice);
    }
    return number.getAsDouble();
  }
}
