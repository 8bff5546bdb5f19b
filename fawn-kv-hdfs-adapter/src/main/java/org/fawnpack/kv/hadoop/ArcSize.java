package org.fawnpack.kv.hadoop;

import java.util.List;
import org.fawnpack.kv.store.KeyRange;

/**
 * One arc of the ring as the splits see it: its range, the live bytes it is estimated to hold,
 * and the hosts of its chain's live members, the tail's (which serves scans) first.
 */
public record ArcSize(KeyRange range, long bytes, List<String> hosts) {
  public ArcSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("an arc of " + bytes + " bytes");
    }
    hosts = List.copyOf(hosts);
  }

  /** The host that serves the arc's scans, or "" when its chain has no live member. */
  String tailHost() {
    return hosts.isEmpty() ? "" : hosts.get(0);
  }
}
