package org.fawnpack.energy.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Several finished jobs side by side: wall time, the joules of their tasks and of the whole
 * application, their work in their own units and work per joule, and, for a job that has one,
 * each ratio to its <b>baseline twin</b> (the paper's Table 8: baseline against optimised):
 * {@code wordcount2} to {@code wordcount}, {@code logcount2} to {@code logcount} (a job named
 * N2 to one named N), and a job run again to its first run. Jobs of different kinds are not
 * divided by one another: logcount's records per joule over wordcount's compares nothing.
 */
final class JobComparison {

  /** What the columns count, printed under the table (the demo's own table times differently). */
  static final String COLUMNS_NOTE = "wall s: from the job's start to its finish as the JobHistory"
      + " server records them (submission not included); task J: the tasks' containers;"
      + " application J: every container of the application, its ApplicationMaster too, from"
      + " the nodes' history files (n/a when none were found); cluster J: every slave of the"
      + " cluster over the job's span, busy or idle (n/a without the nodes' own histories).";

  /** One job's figures; application joules are NaN when its history files were not found. */
  record Row(String jobId, String name, double seconds, double taskJoules,
      double applicationJoules, double clusterJoules, WorkMeasure work, boolean estimated) {

    double workPerJoule() {
      return work.perJoule(taskJoules);
    }
  }

  private final List<Row> rows;

  private JobComparison(List<Row> rows) {
    if (rows.size() < 2) {
      throw new IllegalArgumentException("a comparison needs at least two jobs");
    }
    this.rows = List.copyOf(rows);
  }

  static JobComparison of(List<EnergyReportModel> models) {
    List<Row> rows = new ArrayList<>();
    for (EnergyReportModel m : models) {
      int reduces = Math.max(0, m.job().reducesTotal());
      ClusterEnergy cluster = m.cluster().energy();
      rows.add(new Row(m.jobId(), m.job().name(), m.seconds(), m.taskJoules(),
          m.hasHistory() ? m.applicationJoules() : Double.NaN,
          cluster != null ? cluster.joules() : Double.NaN,
          WorkMeasure.of(m.counters(), reduces), m.estimated()));
    }
    return new JobComparison(rows);
  }

  List<Row> rows() {
    return rows;
  }

  /** The row {@code row} is compared with, or null when it has no twin among the rows. */
  Row baselineOf(Row row) {
    String name = row.name();
    if (name == null) {
      return null;
    }
    if (name.endsWith("2")) {
      String base = name.substring(0, name.length() - 1);
      for (Row r : rows) {
        if (base.equals(r.name())) {
          return r;
        }
      }
    }
    for (Row r : rows) {
      if (r == row) {
        return null; // the first run of its name
      }
      if (name.equals(r.name())) {
        return r;
      }
    }
    return null;
  }

  /** Whether another row is compared with {@code row}. */
  boolean isBaseline(Row row) {
    return rows.stream().anyMatch(r -> r != row && baselineOf(r) == row);
  }

  /** {@code value(row) / value(its baseline)}; NaN when it has none. */
  double ratioToBaseline(Row row, java.util.function.ToDoubleFunction<Row> value) {
    Row base = baselineOf(row);
    return base == null ? Double.NaN : ratio(value.applyAsDouble(row),
        value.applyAsDouble(base));
  }

  /** What a row's ratio cells say when it has no baseline: "base" for a baseline, else "–". */
  String noRatio(Row row) {
    return isBaseline(row) ? "base" : "-";
  }

  /** How the rows are paired, for the reports' headings. */
  static final String PAIRING_NOTE = "ratios: each optimised job to its baseline twin (a job"
      + " named N2 to N: wordcount2 to wordcount, logcount2 to logcount) and a job run again to"
      + " its first run; jobs of other kinds are not divided by one another";

  /** {@code value / baseline}; NaN when either is missing or the baseline is 0. */
  static double ratio(double value, double baseline) {
    return Double.isNaN(value) || Double.isNaN(baseline) || baseline == 0 ? Double.NaN
        : value / baseline;
  }
}
