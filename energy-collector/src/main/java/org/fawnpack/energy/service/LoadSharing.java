package org.fawnpack.energy.service;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.fawnpack.energy.meter.EnergyConfigException;
import org.fawnpack.energy.meter.MeterSpec;

/**
 * The collector's shared meters split by load ({@code share=load}): one {@link LoadShares} per
 * such meter, built from its {@code .hosts} list ({@code host} or {@code host:port}; the port
 * defaults to {@code fawn.energy.load.port}, the same on every host), and the one
 * {@link LoadExchange} they share. This host is the entry of its name and its own port (so
 * several collectors of one host, as in tests, can share a meter by their ports).
 */
final class LoadSharing implements Closeable {
  private final List<LoadShares> meters = new ArrayList<>();
  private final String self;
  private final int port;
  private final long staleNanos;
  private LoadExchange exchange;

  LoadSharing(String self, int port, long staleNanos) {
    this.self = self;
    this.port = port;
    this.staleNanos = staleNanos;
  }

  /** The shares of a {@code share=load} meter; the key named in any error is the spec's. */
  LoadShares add(MeterSpec spec) {
    List<String> hosts = spec.getList("hosts");
    List<LoadShares.Peer> peers = new ArrayList<>();
    String selfEntry = null;
    for (String entry : hosts) {
      int colon = entry.lastIndexOf(':');
      String name = colon > 0 ? entry.substring(0, colon) : entry;
      int entryPort = port;
      if (colon > 0) {
        try {
          entryPort = Integer.parseInt(entry.substring(colon + 1));
        } catch (NumberFormatException e) {
          throw new EnergyConfigException(spec.key("hosts"), "'" + entry + "' is not host or"
              + " host:port");
        }
      }
      if (name.equals(self) && entryPort == port) {
        selfEntry = entry;
      } else {
        peers.add(new LoadShares.Peer(entry, new InetSocketAddress(name, entryPort)));
      }
    }
    if (selfEntry == null || peers.isEmpty()) {
      throw new EnergyConfigException(spec.key("hosts"), "share=load needs this host ("
          + self + ", load port " + port + ") and at least one other in the list, was "
          + hosts);
    }
    double idle = spec.getDouble("shared-idle-watts", Double.NaN);
    LoadShares shares = new LoadShares(spec.name(), selfEntry, peers, idle, staleNanos,
        System::nanoTime);
    meters.add(shares);
    return shares;
  }

  List<LoadShares> meters() {
    return List.copyOf(meters);
  }

  boolean any() {
    return !meters.isEmpty();
  }

  /** Listens on the load port for the peers' figures (once, after every meter was added). */
  void start() throws IOException {
    if (any()) {
      exchange = new LoadExchange(port, meters);
    }
  }

  /** This interval's CPU use: kept for the split, and sent to every peer. */
  void interval(double cpuShare) {
    for (LoadShares shares : meters) {
      shares.ownCpu(cpuShare);
    }
    if (exchange != null) {
      exchange.publish();
    }
  }

  @Override
  public void close() throws IOException {
    if (exchange != null) {
      exchange.close();
    }
  }
}
