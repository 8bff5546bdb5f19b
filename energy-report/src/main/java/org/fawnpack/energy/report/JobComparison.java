package org.fawnpack.energy.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Several finished jobs side by side, the first one the baseline: wall time, the joules of its
 * tasks and of the whole application, its work in its own unit and work per joule, and each
 * ratio to the baseline's (the paper's Table 8: baseline against optimised).
 */
final class JobComparison {

  /** What the columns count, printed under the table (the demo's own table times differently). */
  static final String COLUMNS_NOTE = "wall s: from the job's start to its finish as the JobHistory"
      + " server records them (submission not included); task J: the tasks' containers;"
      + " application J: every container of the application, its ApplicationMaster too, from"
      + " the nodes' history files (n/a when none were found).";

  /** One job's figures; application joules are NaN when its history files were not found. */
  record Row(String jobId, String name, double seconds, double taskJoules,
      double applicationJoules, WorkMeasure work, boolean estimated) {

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
      rows.add(new Row(m.jobId(), m.job().name(), m.seconds(), m.taskJoules(),
          m.hasHistory() ? m.applicationJoules() : Double.NaN,
          WorkMeasure.of(m.counters(), reduces), m.estimated()));
    }
    return new JobComparison(rows);
  }

  List<Row> rows() {
    return rows;
  }

  Row baseline() {
    return rows.get(0);
  }

  /** {@code value / baseline}; NaN when either is missing or the baseline is 0. */
  static double ratio(double value, double baseline) {
    return Double.isNaN(value) || Double.isNaN(baseline) || baseline == 0 ? Double.NaN
        : value / baseline;
  }
}
