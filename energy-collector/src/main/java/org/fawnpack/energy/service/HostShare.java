package org.fawnpack.energy.service;

import java.util.List;
import org.fawnpack.energy.meter.EnergyConfigException;
import org.fawnpack.energy.meter.MeterSpec;

/**
 * The fraction of a shared meter's reading that belongs to this host. One DC supply feeds a box
 * of seven Edisons: each host's collector reads the same supply and books 1/7 of it. Set by
 * {@code fawn.energy.meter.<name>.share}: {@code equal} (default; 1 / number of
 * {@code .hosts}, or 1 when no hosts are listed) or a number in (0, 1].
 */
final class HostShare {
  private HostShare() {
  }

  static double of(MeterSpec spec) {
    String share = spec.get("share", "equal");
    if (share.equalsIgnoreCase("equal")) {
      List<String> hosts = spec.getList("hosts");
      return 1.0 / Math.max(1, hosts.size());
    }
    double fraction = spec.getDouble("share", 1.0);
    if (!(fraction > 0 && fraction <= 1)) {
      throw new EnergyConfigException(spec.key("share"), "must be 'equal' or a fraction in (0, 1], "
          + "was " + share);
    }
    return fraction;
  }
}
