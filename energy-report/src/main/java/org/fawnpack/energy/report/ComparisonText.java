package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.JobComparison.ratio;

import java.util.Locale;
import org.fawnpack.energy.report.JobComparison.Row;

/** The comparison of several jobs as a text table, ratios to the first job. */
final class ComparisonText {

  private static final String FORMAT = "%-24s %-14s %9s %11s %11s %16s %-24s %11s %8s %8s %9s%n";

  private ComparisonText() {}

  static String render(JobComparison c) {
    StringBuilder out = new StringBuilder();
    Row base = c.baseline();
    out.append("FAWN energy comparison: ").append(c.rows().size()).append(" jobs, ratios to the")
        .append(" first (").append(base.jobId()).append(")\n");
    out.append(String.format(Locale.ROOT, FORMAT, "job", "name", "wall s", "task J", "app J",
        "work", "unit", "work/J", "x wall", "x task J", "x work/J"));
    boolean estimated = false;
    for (Row r : c.rows()) {
      estimated |= r.estimated();
      out.append(String.format(Locale.ROOT, FORMAT, r.jobId(), shorten(r.name()),
          Figures.seconds(r.seconds()), Figures.joules(r.taskJoules()) + (r.estimated() ? "*" : ""),
          Figures.joules(r.applicationJoules()), Figures.count(r.work().amount()),
          r.work().unit(), Figures.perJoule(r.workPerJoule()),
          Figures.ratio(ratio(r.seconds(), base.seconds())),
          Figures.ratio(ratio(r.taskJoules(), base.taskJoules())),
          Figures.ratio(ratio(r.workPerJoule(), base.workPerJoule()))));
    }
    out.append(JobComparison.COLUMNS_NOTE).append('\n');
    if (estimated) {
      out.append("* estimated: the node's power came from a power model, not a meter\n");
    }
    if (c.rows().stream().anyMatch(r -> !r.work().unit().equals(base.work().unit()))) {
      out.append("Work is counted in each job's own unit: compare work/J only between jobs of"
          + " one unit.\n");
    }
    return out.toString();
  }

  private static String shorten(String name) {
    if (name == null) {
      return Figures.NA;
    }
    return name.length() <= 14 ? name : name.substring(0, 13) + "~";
  }
}
