package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.HtmlReport.esc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.fawnpack.energy.report.ClusterComparison.Cell;
import org.fawnpack.energy.report.ClusterComparison.Stat;

/**
 * {@link ClusterComparison} as one self-contained HTML page (no script): the text's table, then
 * per job two bar charts across the clusters — cluster joules and work per cluster joule — each
 * bar labelled with its mean (± sd over reruns) and its ratio to the first cluster's.
 */
final class ClusterComparisonHtml {
  /** The job comparison's style, and the table printed as text. */
  private static final String STYLE = ComparisonHtml.STYLE
      + "h3{font-size:1em}pre{background:#f6f6f6;padding:8px;overflow-x:auto}\n";

  private ClusterComparisonHtml() {}

  static void write(ClusterComparison c, Path file) throws IOException {
    Files.writeString(file, render(c), StandardCharsets.UTF_8);
  }

  static String render(ClusterComparison c) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
        + "<meta charset=\"utf-8\">\n<title>FAWN energy: clusters compared</title>\n<style>\n")
        .append(STYLE).append("</style>\n</head>\n<body>\n<h1>FAWN energy: ")
        .append(c.clusters().size()).append(" clusters compared</h1>\n<pre>")
        .append(esc(ClusterComparisonText.render(c))).append("</pre>\n");
    for (Map.Entry<String, List<Cell>> job : c.byJob().entrySet()) {
      h.append("<h2>").append(esc(job.getKey())).append("</h2>\n<h3>Cluster joules</h3>\n");
      bars(h, job.getValue(), Cell::clusterJoules, Figures::joules, " J");
      h.append("<h3>Work per cluster joule</h3>\n");
      bars(h, job.getValue(), Cell::workPerJoule, Figures::perJoule, "");
    }
    return h.append("</body>\n</html>\n").toString();
  }

  private static void bars(StringBuilder h, List<Cell> cells, Function<Cell, Stat> figure,
      java.util.function.DoubleFunction<String> format, String unit) {
    double max = cells.stream().filter(c -> c != null).mapToDouble(c -> figure.apply(c).mean())
        .filter(v -> !Double.isNaN(v)).max().orElse(0);
    Cell first = cells.get(0);
    h.append("<div class=\"bars\">\n");
    for (Cell cell : cells) {
      if (cell == null) {
        continue;
      }
      Stat s = figure.apply(cell);
      double width = max > 0 && !Double.isNaN(s.mean()) ? 100 * s.mean() / max : 0;
      String ratio = cell == first || first == null ? "base" : Figures.ratio(JobComparison.ratio(
          s.mean(), figure.apply(first).mean()));
      h.append("<div>").append(esc(cell.cluster())).append("</div><div><div class=\"bar")
          .append(cell == first ? " base" : "").append(String.format(Locale.ROOT,
              "\" style=\"width:%.1f%%\"></div>", width))
          .append("<span class=\"value\">")
          .append(esc(ClusterComparisonText.stat(s, format) + unit + " (" + ratio + ")"))
          .append("</span></div>\n");
    }
    h.append("</div>\n");
  }
}
