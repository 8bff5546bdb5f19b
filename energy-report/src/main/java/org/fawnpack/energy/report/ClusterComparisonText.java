package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.JobComparison.ratio;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.fawnpack.energy.report.ClusterComparison.Cell;
import org.fawnpack.energy.report.ClusterComparison.Stat;

/** {@link ClusterComparison} as text: the Table 8 layout, then each twin against its baseline. */
final class ClusterComparisonText {
  private static final String ROW = "%-14s %-12s %4s %18s %22s %16s %-16s %20s %8s %8s %9s%n";
  private static final String PAIR = "%-14s %-12s %9s %9s %9s%n";

  private ClusterComparisonText() {}

  static String render(ClusterComparison c) {
    StringBuilder out = new StringBuilder();
    out.append("FAWN energy: ").append(c.clusters().size()).append(" clusters compared ("
        + "seed 003's Table 8). Cluster J: every node of the cluster over the job's span, busy"
        + " or idle; ratios to ").append(c.clusters().get(0)).append(".\n");
    out.append(String.format(Locale.ROOT, ROW, "job", "cluster", "runs", "wall s",
        "cluster J", "work", "unit", "work/J", "x wall", "x J", "x work/J"));
    List<String> notes = new ArrayList<>();
    boolean estimated = false;
    for (Map.Entry<String, List<Cell>> job : c.byJob().entrySet()) {
      Cell first = job.getValue().get(0);
      for (Cell cell : job.getValue()) {
        if (cell == null) {
          continue;
        }
        estimated |= cell.estimated();
        for (String problem : cell.problems()) {
          notes.add(cell.cluster() + " " + job.getKey() + " " + problem);
        }
        boolean base = cell == first;
        out.append(String.format(Locale.ROOT, ROW, shorten(job.getKey(), 14),
            shorten(cell.cluster(), 12), cell.runs(), stat(cell.seconds(), Figures::seconds),
            stat(cell.clusterJoules(), Figures::joules) + (cell.estimated() ? "*" : ""),
            stat(cell.work(), v -> Figures.count(Math.round(v))), shorten(cell.unit(), 16),
            stat(cell.workPerJoule(), Figures::perJoule),
            base ? "base" : ratioOf(cell, first, Cell::seconds),
            base ? "base" : ratioOf(cell, first, Cell::clusterJoules),
            base ? "base" : ratioOf(cell, first, Cell::workPerJoule)));
      }
    }
    twins(c, out);
    if (estimated) {
      out.append("* estimated: some node's power came from a power model, not a meter\n");
    }
    for (String note : notes) {
      out.append("note: ").append(note).append('\n');
    }
    return out.toString();
  }

  /** Within each cluster, an optimised job (N2) against its baseline (N): the paper's pairs. */
  private static void twins(ClusterComparison c, StringBuilder out) {
    StringBuilder rows = new StringBuilder();
    for (Map.Entry<String, List<Cell>> job : c.byJob().entrySet()) {
      String name = job.getKey();
      List<Cell> baseline = name.endsWith("2") ? c.byJob().get(name.substring(0,
          name.length() - 1)) : null;
      if (baseline == null) {
        continue;
      }
      for (int i = 0; i < job.getValue().size(); i++) {
        Cell twin = job.getValue().get(i);
        Cell base = baseline.get(i);
        if (twin != null && base != null) {
          rows.append(String.format(Locale.ROOT, PAIR, shorten(name, 14),
              shorten(twin.cluster(), 12), ratioOf(twin, base, Cell::seconds),
              ratioOf(twin, base, Cell::clusterJoules), ratioOf(twin, base, Cell::workPerJoule)));
        }
      }
    }
    if (rows.length() > 0) {
      out.append("Optimised against its baseline, within each cluster:\n");
      out.append(String.format(Locale.ROOT, PAIR, "job", "cluster", "x wall", "x J",
          "x work/J")).append(rows);
    }
  }

  private static String ratioOf(Cell cell, Cell base, Function<Cell, Stat> figure) {
    return base == null ? Figures.NA
        : Figures.ratio(ratio(figure.apply(cell).mean(), figure.apply(base).mean()));
  }

  /** The mean, and {@code ± sd} when there were several runs. */
  static String stat(Stat s, java.util.function.DoubleFunction<String> format) {
    if (s.n() <= 1 || Double.isNaN(s.sd())) {
      return format.apply(s.mean());
    }
    return format.apply(s.mean()) + " ± " + format.apply(s.sd());
  }

  private static String shorten(String s, int width) {
    if (s == null) {
      return Figures.NA;
    }
    return s.length() <= width ? s : s.substring(0, width - 1) + "~";
  }
}
