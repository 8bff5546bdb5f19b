package org.fawnpack.energy.service;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.fawnpack.energy.cpu.ContainerCpuSource;
import org.fawnpack.energy.cpu.NodeUtilisation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One sampling step for the whole node: read every meter (in parallel, each with the meter
 * timeout), read the containers' CPU times, and book the interval since the previous step in the
 * ledger and the history. Called by the service's timer every sample interval, and by the query
 * server before it answers a task, so a task's figures include the seconds just before it asked.
 */
final class NodeSampler implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeSampler.class);

  private final List<MeterChannel> channels;
  private final EnergyLedger ledger;
  private final ContainerCpuSource cpuSource;
  private final PowerHistory history;
  private final EnergyClock clock;
  private final long meterTimeoutNanos;
  /** Configured idle power; NaN means "learn it": the lowest interval power seen so far. */
  private final double configuredIdleWatts;
  /** Fed the containers' CPU times for a {@code model} meter in "containers" mode; may be null. */
  private final ContainerCpuUtilisation containerUtilisation;

  /** The node's CPU, memory, disks and network per interval; null: not sampled. */
  private NodeUtilisation utilisation;
  private long lastTickNanos = -1;
  private double lowestWatts = Double.POSITIVE_INFINITY;
  private double lastWatts = Double.NaN;
  private long samples;
  private long gapSamples;
  private boolean estimated;

  NodeSampler(List<MeterChannel> channels, EnergyLedger ledger, ContainerCpuSource cpuSource,
      PowerHistory history, EnergyClock clock, long meterTimeoutMillis, double configuredIdleWatts,
      ContainerCpuUtilisation containerUtilisation) {
    this.channels = channels;
    this.ledger = ledger;
    this.cpuSource = cpuSource;
    this.history = history;
    this.clock = clock;
    this.meterTimeoutNanos = meterTimeoutMillis * 1_000_000L;
    this.configuredIdleWatts = configuredIdleWatts;
    this.containerUtilisation = containerUtilisation;
  }

  /** Told the node's CPU use of each interval before its meters are read (shared meters). */
  @FunctionalInterface
  interface CpuListener {
    void interval(double cpuShare);
  }

  private CpuListener cpuListener = cpu -> { };

  /** Samples the node's utilisation with each interval from now on (for its own history). */
  synchronized void sampleUtilisation(NodeUtilisation source) {
    this.utilisation = source;
  }

  /** Tells {@code listener} each interval's CPU use (needs {@link #sampleUtilisation}). */
  synchronized void tellCpu(CpuListener listener) {
    this.cpuListener = listener;
  }

  /** Samples now unless the last sample is younger than {@code minAgeNanos}. */
  synchronized void tickIfOlderThan(long minAgeNanos) {
    if (lastTickNanos < 0 || clock.nanoTime() - lastTickNanos >= minAgeNanos) {
      tick();
    }
  }

  synchronized void tick() {
    long now = clock.nanoTime();
    long millis = clock.currentTimeMillis();
    Map<String, Long> cpu = cpuSource.cumulativeCpuNanos(ledger.runningContainers());
    if (containerUtilisation != null) {
      containerUtilisation.observe(cpu, now);
    }
    double seconds = lastTickNanos < 0 ? 0 : (now - lastTickNanos) / 1e9;
    NodeUtilisation.Sample used = utilisation == null ? NodeUtilisation.Sample.UNKNOWN
        : utilisation.sample();
    cpuListener.interval(used.cpuShare()); // a load-shared meter splits by it
    for (MeterChannel channel : channels) {
      channel.begin();
    }
    long deadline = System.nanoTime() + meterTimeoutNanos;
    double joules = 0;
    double watts = 0;
    boolean gap = channels.isEmpty();
    boolean anyEstimate = false;
    for (MeterChannel channel : channels) {
      ChannelSample sample = channel.complete(seconds, deadline);
      joules += sample.joules();
      watts += Double.isNaN(sample.watts()) ? 0 : sample.watts();
      gap |= sample.gap();
      anyEstimate |= sample.estimated();
    }
    if (lastTickNanos < 0) {
      lastTickNanos = now; // the first reads only set the meters' (and counters') baselines
      return;
    }
    long microjoules = Math.round(joules * 1e6);
    double intervalWatts = seconds > 0 ? joules / seconds : Double.NaN;
    if (!gap && intervalWatts > 0) {
      lowestWatts = Math.min(lowestWatts, intervalWatts);
    }
    double idleWatts = Double.isNaN(configuredIdleWatts)
        ? (Double.isInfinite(lowestWatts) ? 0 : lowestWatts) : configuredIdleWatts;
    long idleMicrojoules = Math.min(microjoules, Math.round(idleWatts * seconds * 1e6));
    Map<String, Long> perApplication = ledger.book(new Interval(lastTickNanos, now, microjoules,
        idleMicrojoules, cpu, gap, anyEstimate));
    history.add(millis, watts, microjoules, gap, perApplication, used);
    lastTickNanos = now;
    lastWatts = watts;
    samples++;
    if (gap) {
      gapSamples++;
    }
    estimated |= anyEstimate;
    if (LOG.isDebugEnabled()) {
      LOG.debug("sample {}: {} W, {} uJ, idle {} uJ, {} containers{}", samples, watts,
          microjoules, idleMicrojoules, perApplication.size(), gap ? " (gap)" : "");
    }
  }

  synchronized double lastWatts() {
    return lastWatts;
  }

  synchronized long samples() {
    return samples;
  }

  synchronized long gapSamples() {
    return gapSamples;
  }

  synchronized boolean estimated() {
    return estimated;
  }

  List<MeterChannel> channels() {
    return channels;
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    for (MeterChannel channel : channels) {
      try {
        channel.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
