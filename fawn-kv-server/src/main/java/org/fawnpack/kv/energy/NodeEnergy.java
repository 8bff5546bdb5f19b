package org.fawnpack.kv.energy;

import java.io.Closeable;
import java.io.IOException;

/**
 * The energy a back-end's node has used: a counter in microjoules that only grows, read from
 * the same sources the Hadoop energy collector uses (the collector's NODE query where one runs
 * on the node, else a power model of the host's CPU utilisation). Queries per joule are the
 * back-end's requests over the difference of two readings.
 */
public interface NodeEnergy extends Closeable {
  /** Not metered: {@link #microjoules} is -1. */
  NodeEnergy NONE = new NodeEnergy() {
    @Override
    public long microjoules() {
      return -1;
    }

    @Override
    public boolean estimated() {
      return false;
    }

    @Override
    public String toString() {
      return "not metered";
    }

    @Override
    public void close() {
    }
  };

  /** The node's energy so far (from an origin of the source's choosing), or -1 if none. */
  long microjoules() throws IOException;

  /** Whether the figure comes from a model rather than a meter. */
  boolean estimated();
}
