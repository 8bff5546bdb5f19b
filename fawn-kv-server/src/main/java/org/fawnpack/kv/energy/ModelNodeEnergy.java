package org.fawnpack.kv.energy;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The node's energy from a linear power model, as the energy collector's {@code model} meter
 * has it: {@code watts = idle + u * (busy - idle)}, integrated over time, sampled every second.
 * Here u is this back-end process's own CPU time over all of the host's CPUs: the node's power
 * if the back-end is all it runs (a wimpy node that serves FAWN-KV alone; or each of several
 * back-ends on one test machine counted as its own node). A node that also runs other work
 * (a DataNode, tasks) is metered better by the collector. An estimate, marked as such; idle and
 * busy watts come from measuring the node profile (the paper's Edison: 1.40 W, 1.68 W).
 */
public final class ModelNodeEnergy implements NodeEnergy {
  private static final long SAMPLE_MS = 1_000;

  private final double idleWatts;
  private final double busyWatts;
  private final int cpus;
  private final LongSupplier cpuNanos;
  private final LongSupplier clockNanos;
  private final ScheduledExecutorService sampler;
  private long lastCpuNanos; // guarded by this
  private long lastNanos; // guarded by this
  private double watts; // guarded by this: the power since the last sample
  private double microjoules; // guarded by this: up to the last sample

  /** Samples this process's CPU time every second from now on. */
  public ModelNodeEnergy(double idleWatts, double busyWatts) {
    this(idleWatts, busyWatts, Runtime.getRuntime().availableProcessors(),
        ModelNodeEnergy::processCpuNanos, System::nanoTime, true);
  }

  ModelNodeEnergy(double idleWatts, double busyWatts, int cpus, LongSupplier cpuNanos,
      LongSupplier clockNanos, boolean sample) {
    if (!(idleWatts >= 0) || !(busyWatts >= idleWatts)) {
      throw new IllegalArgumentException("a power model needs busy >= idle >= 0 watts: idle "
          + idleWatts + ", busy " + busyWatts);
    }
    this.idleWatts = idleWatts;
    this.busyWatts = busyWatts;
    this.cpus = cpus;
    this.cpuNanos = cpuNanos;
    this.clockNanos = clockNanos;
    this.lastCpuNanos = cpuNanos.getAsLong();
    this.lastNanos = clockNanos.getAsLong();
    this.watts = idleWatts; // no utilisation known before the first interval
    this.sampler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "fawn-kv-power-model");
      t.setDaemon(true);
      return t;
    });
    if (sample) {
      sampler.scheduleAtFixedRate(this::sample, SAMPLE_MS, SAMPLE_MS, TimeUnit.MILLISECONDS);
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** Integrates the power since the last sample, then sets it from the new utilisation. */
  synchronized void sample() {
    long now = clockNanos.getAsLong();
    long cpu = cpuNanos.getAsLong();
    long wall = now - lastNanos;
    microjoules += watts * wall / 1_000.0;
    double utilisation = wall <= 0 ? 0
        : Math.min(1, Math.max(0, (double) (cpu - lastCpuNanos) / ((double) wall * cpus)));
    watts = idleWatts + utilisation * (busyWatts - idleWatts);
    lastCpuNanos = cpu;
    lastNanos = now;
  }

  @Override
  public synchronized long microjoules() {
    return Math.round(microjoules + watts * (clockNanos.getAsLong() - lastNanos) / 1_000.0);
  }

  @Override
  public boolean estimated() {
    return true;
  }

  @Override
  public String toString() {
    return "a power model (" + idleWatts + " W idle, " + busyWatts + " W busy)";
  }

  @Override
  public void close() {
    sampler.shutdownNow();
  }
}
