package org.fawnpack.energy.service;

import java.util.List;
import org.fawnpack.energy.meter.EnergyConfigException;
import org.fawnpack.energy.meter.MeterSpec;

/**
 * This host's part of a meter's reading. One DC supply feeds a box of seven Edisons: each
 * host's collector reads the same supply and books its part. Set by
 * {@code fawn.energy.meter.<name>.share}: {@code equal} (default; 1 / number of {@code .hosts},
 * or 1 when no hosts are listed), a fraction in (0, 1], or {@code load}: the supply's idle
 * power split equally and the power above it by each host's CPU use ({@link LoadShares}).
 */
interface HostShare {

  /** This host's part of {@code watts}, the whole meter's power over an interval. */
  double ofWatts(double watts);

  /** A fixed fraction: {@code equal} or a number. */
  record Fixed(double fraction) implements HostShare {
    @Override
    public double ofWatts(double watts) {
      return watts * fraction;
    }
  }

  /** Whether {@code spec} asks for the split by load. */
  static boolean byLoad(MeterSpec spec) {
    return spec.get("share", "equal").trim().equalsIgnoreCase("load");
  }

  /** The fixed share {@code spec} gives (not for {@code load}). */
  static Fixed fixed(MeterSpec spec) {
    String share = spec.get("share", "equal");
    if (share.equalsIgnoreCase("equal")) {
      List<String> hosts = spec.getList("hosts");
      return new Fixed(1.0 / Math.max(1, hosts.size()));
    }
    double fraction = spec.getDouble("share", 1.0);
    if (!(fraction > 0 && fraction <= 1)) {
      throw new EnergyConfigException(spec.key("share"), "must be 'equal', 'load' or a"
          + " fraction in (0, 1], was " + share);
    }
    return new Fixed(fraction);
  }
}
