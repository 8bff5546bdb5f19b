package org.fawnpack.energy.service;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A meter that feeds several hosts, split by load ({@code share=load}): its idle power equally
 * (every board draws it, busy or not), the power above it by each host's CPU use in the
 * interval. Each host's collector reads the same meter and books its own part, so the hosts'
 * parts add up to the meter's reading when they see the same figures: each knows its own CPU
 * use, and learns the others' from their collectors ({@link LoadExchange}). A figure older than
 * three sample intervals (a host down, a datagram lost) is not used: the part above idle is
 * then split equally for that interval, and counted ({@link #equalSplits}).
 */
final class LoadShares implements HostShare {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
      LoadShares.class);

  /** Another host of the meter: its name in {@code .hosts} and its collector's exchange port. */
  record Peer(String name, InetSocketAddress address) {}

  private record Figure(double cpuShare, long atNanos) {}

  private final String meter;
  private final String self;
  private final List<Peer> peers;
  private final double configuredIdleWatts; // NaN: learned, the lowest reading seen
  private final long staleNanos;
  private final LongSupplier nanoTime;
  private final Map<String, Figure> latest = new ConcurrentHashMap<>();
  private final AtomicLong equalSplits = new AtomicLong();
  private volatile double ownCpuShare = Double.NaN;
  private double lowestWatts = Double.POSITIVE_INFINITY; // guarded by this
  private boolean splitEqually; // guarded by this: logged once per stretch

  LoadShares(String meter, String self, List<Peer> peers, double idleWatts, long staleNanos,
      LongSupplier nanoTime) {
    this.meter = meter;
    this.self = self;
    this.peers = List.copyOf(peers);
    this.configuredIdleWatts = idleWatts;
    this.staleNanos = staleNanos;
    this.nanoTime = nanoTime;
  }

  String meter() {
    return meter;
  }

  String self() {
    return self;
  }

  List<Peer> peers() {
    return peers;
  }

  /** This host's CPU busy share (0 to 1) in the interval being sampled. */
  void ownCpu(double cpuShare) {
    ownCpuShare = cpuShare;
  }

  double ownCpu() {
    return ownCpuShare;
  }

  /** A peer's figure arrived; one from a host not of this meter is ignored (and false). */
  boolean peerCpu(String host, double cpuShare) {
    if (peers.stream().noneMatch(p -> p.name().equals(host)) || !(cpuShare >= 0)
        || cpuShare > 1) {
      return false;
    }
    latest.put(host, new Figure(cpuShare, nanoTime.getAsLong()));
    return true;
  }

  @Override
  public synchronized double ofWatts(double watts) {
    int hosts = peers.size() + 1;
    lowestWatts = Math.min(lowestWatts, watts);
    double idle = Double.isNaN(configuredIdleWatts) ? lowestWatts
        : Math.min(configuredIdleWatts, watts);
    double above = watts - idle;
    double own = ownCpuShare;
    double all = own;
    long now = nanoTime.getAsLong();
    for (Peer p : peers) {
      Figure f = latest.get(p.name());
      if (f == null || now - f.atNanos() > staleNanos) {
        all = Double.NaN;
        break;
      }
      all += f.cpuShare();
    }
    if (Double.isNaN(all) || Double.isNaN(own)) {
      equalSplits.incrementAndGet();
      if (!splitEqually) {
        LOG.warn("meter {}: no fresh CPU figure from every other host ({}): the power above"
            + " idle is split equally until they come (fawn.energy.load.port open between"
            + " them?)", meter, peers.stream().map(Peer::name).toList());
      }
      splitEqually = true;
      return idle / hosts + above / hosts;
    }
    if (splitEqually) {
      LOG.info("meter {}: every host's CPU figure arrives again: split by load", meter);
      splitEqually = false;
    }
    // No host busy: what is above the idle figure (a learned idle below the true one) is
    // nobody's in particular.
    return idle / hosts + (all > 0 ? above * own / all : above / hosts);
  }

  /** Whether every peer's figure is fresh now. */
  boolean hasEveryPeer() {
    long now = nanoTime.getAsLong();
    return peers.stream().allMatch(p -> {
      Figure f = latest.get(p.name());
      return f != null && now - f.atNanos() <= staleNanos;
    });
  }

  /** Intervals whose part above idle was split equally, for want of a peer's fresh figure. */
  long equalSplits() {
    return equalSplits.get();
  }
}
