package org.fawnpack.kv.energy;

import java.io.IOException;
import org.fawnpack.energy.CollectorClient;
import org.fawnpack.energy.EnergyProtocol;

/**
 * The node's energy as the Hadoop energy collector on the same node meters it: one {@code NODE}
 * request on its loopback port ({@code fawn.energy.port}), answered {@code OK watts=..
 * metered_uj=.. ...}; {@code metered_uj} is the node's metered energy since the collector
 * started. It asks through the collector's own client ({@code CollectorClient}, Hadoop-free).
 */
public final class CollectorNodeEnergy implements NodeEnergy {
  private static final int TIMEOUT_MS = 2_000;
  private final int port;
  private final CollectorClient client;
  private volatile boolean estimated;

  public CollectorNodeEnergy(int port) {
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("the energy collector's port is 1..65535: " + port);
    }
    this.port = port;
    this.client = new CollectorClient(port, TIMEOUT_MS);
  }

  @Override
  public long microjoules() throws IOException {
    String answer = client.ask(EnergyProtocol.NODE);
    // meters=<name>:<type>;...: a "model" meter estimates rather than measures.
    estimated = answer.matches(".*\\bmeters=\\S*:model\\b.*");
    for (String field : answer.split(" +")) {
      if (field.startsWith("metered_uj=")) {
        try {
          return Long.parseLong(field.substring("metered_uj=".length()));
        } catch (NumberFormatException e) {
          throw new IOException("the energy collector on port " + port + " answered NODE with"
              + " '" + answer + "': metered_uj is not a number", e);
        }
      }
    }
    throw new IOException("the energy collector on port " + port + " answered NODE without"
        + " metered_uj: '" + answer + "'");
  }

  /** Whether the collector's last answer named a model meter (as of the last reading). */
  @Override
  public boolean estimated() {
    return estimated;
  }

  @Override
  public String toString() {
    return "the energy collector on port " + port;
  }

  @Override
  public void close() {
  }
}
