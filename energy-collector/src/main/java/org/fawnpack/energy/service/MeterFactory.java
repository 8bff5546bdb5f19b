package org.fawnpack.energy.service;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import org.fawnpack.energy.meter.EnergyConfigException;
import org.fawnpack.energy.cpu.CpuUtilisation;
import org.fawnpack.energy.meter.ApcupsdMeter;
import org.fawnpack.energy.meter.HwmonMeter;
import org.fawnpack.energy.meter.MeterSpec;
import org.fawnpack.energy.meter.ModelMeter;
import org.fawnpack.energy.meter.RaplMeter;
import org.fawnpack.energy.meter.ScpiMeter;
import org.fawnpack.energy.meter.SnmpPduMeter;
import org.fawnpack.energy.meter.PowerMeter;

/**
 * Builds a meter from its {@code .type}: one of the built-in types, or the class name of your own
 * {@link PowerMeter} with a public {@code (MeterSpec)} constructor.
 */
final class MeterFactory {
  static final String KNOWN_TYPES = "hwmon, rapl, snmp-pdu, scpi, apcupsd, model";

  /** Host utilisation for a "model" meter, built only if one asks for it. */
  interface UtilisationSources {
    CpuUtilisation host();

    CpuUtilisation containers();
  }

  private final UtilisationSources utilisation;

  MeterFactory(UtilisationSources utilisation) {
    this.utilisation = utilisation;
  }

  PowerMeter create(MeterSpec spec) throws IOException {
    String type = spec.type();
    return switch (type) {
      case "hwmon" -> new HwmonMeter(spec);
      case "rapl" -> new RaplMeter(spec);
      case "model" -> new ModelMeter(spec, modelUtilisation(spec));
      case SnmpPduMeter.TYPE -> new SnmpPduMeter(spec);
      case ScpiMeter.TYPE -> new ScpiMeter(spec);
      case ApcupsdMeter.TYPE -> new ApcupsdMeter(spec);
      default -> custom(spec, type);
    };
  }

  /**
   * {@code .utilisation}: {@code host} (default; SIGAR, else /proc/stat) or {@code containers}
   * (this NodeManager's containers' CPU time over its vcores, for NodeManagers sharing a host).
   */
  private CpuUtilisation modelUtilisation(MeterSpec spec) {
    String source = spec.get("utilisation", "host");
    return switch (source) {
      case "host" -> utilisation.host();
      case "containers" -> utilisation.containers();
      default -> throw new EnergyConfigException(spec.key("utilisation"), "must be host or "
          + "containers, was '" + source + "'");
    };
  }

  private static PowerMeter custom(MeterSpec spec, String type) throws IOException {
    if (!type.contains(".")) {
      throw new EnergyConfigException(spec.key("type"), "names an unknown meter type '" + type
          + "'; known: " + KNOWN_TYPES + ", or the class name of a PowerMeter");
    }
    try {
      Class<?> cls = Class.forName(spec.get("type", null), true,
          Thread.currentThread().getContextClassLoader() != null
              ? Thread.currentThread().getContextClassLoader() : MeterFactory.class.getClassLoader());
      if (!PowerMeter.class.isAssignableFrom(cls)) {
        throw new EnergyConfigException(spec.key("type"), "names " + cls.getName()
            + ", which does not implement " + PowerMeter.class.getName());
      }
      Constructor<?> constructor = cls.getConstructor(MeterSpec.class);
      return (PowerMeter) constructor.newInstance(spec);
    } catch (ClassNotFoundException e) {
      throw new EnergyConfigException(spec.key("type"), "names class " + spec.get("type", null)
          + ", which is not on the NodeManager's classpath");
    } catch (NoSuchMethodException e) {
      throw new EnergyConfigException(spec.key("type"), "names a class without a public "
          + "(MeterSpec) constructor");
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IOException(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IOException("cannot create meter " + spec.name() + ": " + e, e);
    }
  }
}
