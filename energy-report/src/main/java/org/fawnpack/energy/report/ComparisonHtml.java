package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.HtmlReport.esc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.fawnpack.energy.report.JobComparison.Row;

/**
 * The comparison of several jobs as one self-contained HTML page: the table of the text report
 * and two bar charts, joules and work per joule, each bar labelled with its value and its ratio
 * to the first job. No script and no external file: the page opens anywhere.
 */
final class ComparisonHtml {

  /** The comparison pages' style (also {@link ClusterComparisonHtml}'s). */
  static final String STYLE = """
      body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222}
      h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}
      table{border-collapse:collapse;margin:8px 0}
      td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}
      td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
      .bars{display:grid;grid-template-columns:max-content 1fr;gap:6px 12px;max-width:900px}
      .bar{height:20px;background:#1f5fa8;border-radius:2px}
      .bar.base{background:#888}
      .value{font-size:12px;color:#333;white-space:nowrap}
      .note{color:#555;font-size:0.9em}
      """;

  private ComparisonHtml() {}

  static void write(JobComparison c, Path file) throws IOException {
    Files.writeString(file, render(c), StandardCharsets.UTF_8);
  }

  static String render(JobComparison c) {
    StringBuilder h = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
        + "<meta charset=\"utf-8\">\n<title>FAWN energy comparison</title>\n<style>\n")
        .append(STYLE).append("</style>\n</head>\n<body>\n");
    h.append("<h1>FAWN energy comparison</h1>\n<p class=\"note\">").append(c.rows().size())
        .append(" jobs; ").append(esc(JobComparison.PAIRING_NOTE)).append(".</p>\n");
    table(h, c);
    h.append("<p class=\"note\">").append(esc(JobComparison.COLUMNS_NOTE)).append("</p>\n");
    h.append("<h2>Joules of the job's tasks</h2>\n");
    bars(h, c, Row::taskJoules, Figures::joules, " J");
    h.append("<h2>Work per joule (each job's own unit)</h2>\n");
    bars(h, c, Row::workPerJoule, Figures::perJoule, "");
    if (c.rows().stream().anyMatch(Row::estimated)) {
      h.append("<p class=\"note\">Marked *: estimated, the node's power came from a power model,"
          + " not a meter.</p>\n");
    }
    return h.append("</body>\n</html>\n").toString();
  }

  private static void table(StringBuilder h, JobComparison c) {
    h.append("<table>\n<tr><th>job</th><th>name</th><th class=\"num\">wall s</th>"
        + "<th class=\"num\">task J</th><th class=\"num\">application J</th>"
        + "<th class=\"num\">cluster J</th>"
        + "<th class=\"num\">work</th><th>unit</th><th class=\"num\">work/J</th>"
        + "<th class=\"num\">&times; wall</th><th class=\"num\">&times; task J</th>"
        + "<th class=\"num\">&times; work/J</th></tr>\n");
    for (Row r : c.rows()) {
      h.append("<tr><td>").append(esc(r.jobId())).append("</td><td>").append(esc(r.name()))
          .append("</td>");
      cell(h, Figures.seconds(r.seconds()));
      cell(h, Figures.joules(r.taskJoules()) + (r.estimated() ? "*" : ""));
      cell(h, Figures.joules(r.applicationJoules()));
      cell(h, Figures.joules(r.clusterJoules()));
      cell(h, Figures.count(r.work().amount()));
      h.append("<td>").append(esc(r.work().unit())).append("</td>");
      cell(h, Figures.perJoule(r.workPerJoule()));
      cell(h, ComparisonText.ratioCell(c, r, Row::seconds));
      cell(h, ComparisonText.ratioCell(c, r, Row::taskJoules));
      cell(h, ComparisonText.ratioCell(c, r, Row::workPerJoule));
      h.append("</tr>\n");
    }
    h.append("</table>\n");
  }

  private static void cell(StringBuilder h, String text) {
    h.append("<td class=\"num\">").append(esc(text)).append("</td>");
  }

  /** One bar per job, as wide as its share of the largest value. */
  private static void bars(StringBuilder h, JobComparison c, ToDoubleFunction<Row> value,
      java.util.function.DoubleFunction<String> format, String unit) {
    double max = c.rows().stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).max()
        .orElse(0);
    h.append("<div class=\"bars\">\n");
    for (Row r : c.rows()) {
      Row base = c.baselineOf(r);
      boolean isBase = c.isBaseline(r);
      double v = value.applyAsDouble(r);
      double width = max > 0 && !Double.isNaN(v) ? 100 * v / max : 0;
      h.append("<div>").append(esc(r.name() != null ? r.name() : r.jobId())).append("</div>")
          .append("<div><div class=\"bar").append(isBase ? " base" : "")
          .append(String.format(Locale.ROOT, "\" style=\"width:%.1f%%\"></div>", width))
          .append("<span class=\"value\">").append(esc(format.apply(v) + unit))
          .append(esc(base != null ? " (" + Figures.ratio(c.ratioToBaseline(r, value)) + " of "
              + (base.name() == null ? base.jobId() : base.name()) + ")"
              : isBase ? " (baseline)" : ""))
          .append("</span></div>\n");
    }
    h.append("</div>\n");
  }
}
