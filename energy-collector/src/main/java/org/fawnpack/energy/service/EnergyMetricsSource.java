package org.fawnpack.energy.service;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * Node power and energy as a Hadoop Metrics2 source, so the NodeManager's {@code /jmx} (and
 * {@code /prom} with {@code hadoop.prometheus.endpoint.enabled}) show them next to YARN's own.
 * Prometheus names are the record and metric names in snake case: {@code fawn_energy_power_watts}
 * and so on, each with a {@code node} label (the node's name in the energy history files) so
 * that the lines of several NodeManagers sharing one JVM (a mini cluster) stay apart.
 */
final class EnergyMetricsSource implements MetricsSource {
  static final String RECORD = "FawnEnergy";
  private static final MetricsInfo NODE = Interns.info("Node", "Node name in the energy history files");
  private static final MetricsInfo POWER = Interns.info("PowerWatts", "Node power in the last sample interval (W)");
  private static final MetricsInfo ENERGY = Interns.info("EnergyJoules", "Energy metered since the collector started (J)");
  private static final MetricsInfo NODE_IDLE = Interns.info("NodeIdleEnergyJoules", "Metered energy while no container ran (J)");
  private static final MetricsInfo SAMPLES = Interns.info("Samples", "Sample intervals booked");
  private static final MetricsInfo GAPS = Interns.info("GapSamples", "Sample intervals with at least one meter gap");
  private static final MetricsInfo CONTAINERS = Interns.info("Containers", "Containers in the ledger now");
  private static final MetricsInfo ESTIMATED = Interns.info("Estimated", "1 when node power comes from a model or load estimate");

  private final NodeSampler sampler;
  private final EnergyLedger ledger;
  private final String node;

  EnergyMetricsSource(NodeSampler sampler, EnergyLedger ledger, String node) {
    this.sampler = sampler;
    this.ledger = ledger;
    this.node = node;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    double watts = sampler.lastWatts();
    collector.addRecord(RECORD).setContext("fawn").tag(NODE, node)
        .addGauge(POWER, Double.isNaN(watts) ? 0.0 : watts)
        .addGauge(ENERGY, ledger.meteredMicrojoules() / 1e6)
        .addGauge(NODE_IDLE, ledger.nodeIdleMicrojoules() / 1e6)
        .addCounter(SAMPLES, sampler.samples())
        .addCounter(GAPS, sampler.gapSamples())
        .addGauge(CONTAINERS, ledger.liveCount())
        .addGauge(ESTIMATED, sampler.estimated() ? 1 : 0);
  }
}
