package org.fawnpack.energy.report;

import java.util.Locale;
import org.fawnpack.energy.report.JobComparison.Row;

/** The comparison of several jobs as a text table, each ratio to the job's baseline twin. */
final class ComparisonText {

  private static final String FORMAT =
      "%-24s %-14s %9s %11s %11s %11s %16s %-24s %11s %8s %8s %9s%n";

  private ComparisonText() {}

  static String render(JobComparison c) {
    StringBuilder out = new StringBuilder();
    out.append("FAWN energy comparison: ").append(c.rows().size()).append(" jobs; ")
        .append(JobComparison.PAIRING_NOTE).append("\n");
    out.append(String.format(Locale.ROOT, FORMAT, "job", "name", "wall s", "task J", "app J",
        "cluster J", "work", "unit", "work/J", "x wall", "x task J", "x work/J"));
    boolean estimated = false;
    for (Row r : c.rows()) {
      estimated |= r.estimated();
      out.append(String.format(Locale.ROOT, FORMAT, r.jobId(), shorten(r.name()),
          Figures.seconds(r.seconds()), Figures.joules(r.taskJoules()) + (r.estimated() ? "*" : ""),
          Figures.joules(r.applicationJoules()), Figures.joules(r.clusterJoules()),
          Figures.count(r.work().amount()),
          r.work().unit(), Figures.perJoule(r.workPerJoule()),
          ratioCell(c, r, Row::seconds), ratioCell(c, r, Row::taskJoules),
          ratioCell(c, r, Row::workPerJoule)));
    }
    out.append(JobComparison.COLUMNS_NOTE).append('\n');
    if (estimated) {
      out.append("* estimated: the node's power came from a power model, not a meter\n");
    }
    if (c.rows().stream().anyMatch(r -> c.baselineOf(r) != null
        && !r.work().unit().equals(c.baselineOf(r).work().unit()))) {
      out.append("Work is counted in each job's own unit: compare work/J only between jobs of"
          + " one unit.\n");
    }
    return out.toString();
  }

  /** The row's ratio to its baseline, or "base" / "-" when it has none. */
  static String ratioCell(JobComparison c, Row r, java.util.function.ToDoubleFunction<Row> v) {
    return c.baselineOf(r) == null ? c.noRatio(r) : Figures.ratio(c.ratioToBaseline(r, v));
  }

  private static String shorten(String name) {
    if (name == null) {
      return Figures.NA;
    }
    return name.length() <= 14 ? name : name.substring(0, 13) + "~";
  }
}
