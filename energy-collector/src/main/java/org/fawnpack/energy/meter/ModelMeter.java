package org.fawnpack.energy.meter;

import java.io.IOException;
import java.util.Objects;
import org.fawnpack.energy.cpu.CpuUtilisation;
import org.fawnpack.energy.cpu.HostCpuUtilisation;

/**
 * The {@code model} meter: no instrument, a linear power model of CPU utilisation,
 * {@code power = idle + u * (busy - idle)}, for nodes without a readable sensor. Its readings are
 * marked as estimates.
 *
 * <p>Keys ({@code <name>} is the meter's name in {@code fawn.energy.meters}):
 * <ul>
 *   <li>{@code fawn.energy.meter.<name>.idle-watts} (required, &ge; 0): whole-node power at
 *       idle;</li>
 *   <li>{@code fawn.energy.meter.<name>.busy-watts} (required, &ge; idle-watts): whole-node
 *       power with all CPUs busy.</li>
 * </ul>
 * The two figures come from measuring the node profile. For example, the FAWN paper's nodes:
 * Intel Edison 1.40 W idle / 1.68 W busy (including its USB Ethernet adaptor), Dell PowerEdge
 * R620 52 W / 109 W.
 *
 * <p>On the first read there is no utilisation yet (NaN), so the meter reports idle power;
 * utilisation outside [0,1] is clamped.
 */
public final class ModelMeter implements PowerMeter {
  public static final String IDLE_WATTS = "idle-watts";
  public static final String BUSY_WATTS = "busy-watts";

  private final String name;
  private final CpuUtilisation utilisation;
  private final double idleWatts;
  private final double busyWatts;

  /**
   * @throws EnergyConfigException naming the key, if a figure is missing, not a number, or not
   *     {@code busy >= idle >= 0}
   */
  public ModelMeter(MeterSpec spec, CpuUtilisation utilisation) {
    this(spec.name(), Figures.read(spec), utilisation);
  }

  /** A model meter over this host's CPU utilisation ({@link HostCpuUtilisation#create()}). */
  public static ModelMeter create(MeterSpec spec) {
    Figures figures = Figures.read(spec); // a config error fails before SIGAR is loaded
    return new ModelMeter(spec.name(), figures, HostCpuUtilisation.create());
  }

  private ModelMeter(String name, Figures figures, CpuUtilisation utilisation) {
    this.name = name;
    this.idleWatts = figures.idle();
    this.busyWatts = figures.busy();
    this.utilisation = Objects.requireNonNull(utilisation, "utilisation");
  }

  /** The two configured figures, validated. */
  private record Figures(double idle, double busy) {
    static Figures read(MeterSpec spec) {
      double idle = requireWatts(spec, IDLE_WATTS);
      double busy = requireWatts(spec, BUSY_WATTS);
      if (idle < 0) {
        throw new EnergyConfigException(spec.key(IDLE_WATTS), "must be at least 0, was " + idle);
      }
      if (busy < idle) {
        throw new EnergyConfigException(spec.key(BUSY_WATTS), "must be at least "
            + spec.key(IDLE_WATTS) + " (" + idle + "), was " + busy);
      }
      return new Figures(idle, busy);
    }

    private static double requireWatts(MeterSpec spec, String setting) {
      spec.require(setting);
      return spec.getDouble(setting, Double.NaN);
    }
  }

  @Override
  public String name() {
    return name;
  }

  public double idleWatts() {
    return idleWatts;
  }

  public double busyWatts() {
    return busyWatts;
  }

  @Override
  public MeterReading read() throws IOException {
    double u;
    try {
      u = utilisation.sinceLastCall();
    } catch (MeterException e) {
      throw e;
    } catch (IOException e) {
      throw new MeterException("cpu-utilisation", "meter '" + name
          + "': could not read CPU utilisation: " + e.getMessage(), e);
    }
    if (Double.isNaN(u)) {
      return MeterReading.estimatedWatts(idleWatts); // first call: nothing to difference yet
    }
    double clamped = Math.min(1.0, Math.max(0.0, u));
    return MeterReading.estimatedWatts(idleWatts + clamped * (busyWatts - idleWatts));
  }
}
