package org.fawnpack.energy.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same jobs on several clusters, the papers' Table 8 (seed 003: an Edison cluster against a
 * Dell one): per job name and cluster, the wall time, the cluster's joules over the job's span
 * (every node, busy or idle: {@link ClusterEnergy}), the work and the work per cluster joule —
 * the mean and standard deviation when a cluster ran a job several times — and each cluster's
 * ratio to the first cluster's.
 */
final class ClusterComparison {

  /** One cluster's reports, in the order its jobs were named. */
  record Cluster(String name, List<EnergyReportModel> jobs) {
    Cluster {
      jobs = List.copyOf(jobs);
    }
  }

  /** Mean and sample standard deviation of {@code n} values (NaN sd for one). */
  record Stat(double mean, double sd, int n) {
    static Stat of(List<Double> values) {
      List<Double> known = values.stream().filter(v -> !Double.isNaN(v)).toList();
      if (known.isEmpty()) {
        return new Stat(Double.NaN, Double.NaN, 0);
      }
      double mean = known.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      double squares = known.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
      double sd = known.size() > 1 ? Math.sqrt(squares / (known.size() - 1)) : Double.NaN;
      return new Stat(mean, sd, known.size());
    }
  }

  /** One job name on one cluster: its runs' figures. */
  record Cell(String cluster, int runs, Stat seconds, Stat clusterJoules, Stat work,
      Stat workPerJoule, String unit, boolean estimated, List<String> problems) {

    static Cell of(String cluster, List<EnergyReportModel> runs) {
      List<Double> seconds = new ArrayList<>();
      List<Double> joules = new ArrayList<>();
      List<Double> work = new ArrayList<>();
      List<Double> perJoule = new ArrayList<>();
      List<String> problems = new ArrayList<>();
      boolean estimated = false;
      String unit = null;
      for (EnergyReportModel m : runs) {
        ClusterFigures figures = m.cluster();
        ClusterEnergy energy = figures.energy();
        seconds.add(m.seconds());
        joules.add(energy == null ? Double.NaN : energy.joules());
        work.add((double) m.work().amount());
        perJoule.add(m.clusterWorkPerJoule());
        unit = unit == null ? m.work().unit() : unit;
        estimated |= energy != null && energy.estimated();
        if (energy == null) {
          problems.add(m.jobId() + ": " + figures.problem());
        } else if (!energy.complete()) {
          problems.add(m.jobId() + ": nodes covered: " + ClusterRows.coverage(energy));
        }
      }
      return new Cell(cluster, runs.size(), Stat.of(seconds), Stat.of(joules), Stat.of(work),
          Stat.of(perJoule), unit, estimated, problems);
    }
  }

  private final List<String> clusters;
  private final Map<String, List<Cell>> byJob = new LinkedHashMap<>();

  ClusterComparison(List<Cluster> clusters) {
    if (clusters.size() < 2) {
      throw new IllegalArgumentException("a comparison of clusters needs at least two");
    }
    this.clusters = clusters.stream().map(Cluster::name).toList();
    List<String> names = new ArrayList<>();
    for (Cluster c : clusters) {
      for (EnergyReportModel m : c.jobs()) {
        String name = jobName(m);
        if (!names.contains(name)) {
          names.add(name);
        }
      }
    }
    for (String name : names) {
      List<Cell> cells = new ArrayList<>();
      for (Cluster c : clusters) {
        List<EnergyReportModel> runs = c.jobs().stream().filter(m -> jobName(m).equals(name))
            .toList();
        cells.add(runs.isEmpty() ? null : Cell.of(c.name(), runs));
      }
      byJob.put(name, cells);
    }
  }

  static String jobName(EnergyReportModel m) {
    String name = m.job().name();
    return name == null || name.isBlank() ? m.jobId() : name;
  }

  List<String> clusters() {
    return clusters;
  }

  /** Job name to one cell per cluster (null where that cluster did not run it). */
  Map<String, List<Cell>> byJob() {
    return byJob;
  }
}
