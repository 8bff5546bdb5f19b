package org.fawnpack.kv.hadoop;

import java.util.List;
import org.fawnpack.kv.store.KeyRange;

/**
 * One arc of the ring as the splits see it: its range, the live bytes it is estimated to hold,
 * the hosts of its chain's live members, the tail's (which serves scans) first, and the last
 * sequence number its tail had (the cut of a point-in-time read; 0 for an empty arc).
 */
public record ArcSize(KeyRange range, long bytes, List<String> hosts, long tailSequence) {
  /** The tail gave no figures: no cut is known. */
  public static final long UNKNOWN_SEQUENCE = -1;

  public ArcSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("an arc of " + bytes + " bytes");
    }
    hosts = List.copyOf(hosts);
  }

  public ArcSize(KeyRange range, long bytes, List<String> hosts) {
    this(range, bytes, hosts, UNKNOWN_SEQUENCE);
  }

  /** The host that serves the arc's scans, or "" when its chain has no live member. */
  String tailHost() {
    return hosts.isEmpty() ? "" : hosts.get(0);
  }
}
