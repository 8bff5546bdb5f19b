package org.fawnpack.energy.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.fawnpack.energy.report.EnergyReportModel.NodeFigures;
import org.fawnpack.energy.report.EnergyReportModel.Phase;

/**
 * The report as one self-contained HTML page (inline CSS and SVG; no scripts, fonts or links):
 * the summary table, then per history file a chart of the node's power over the job (x: seconds
 * since the job started, y: watts) with the map, shuffle and reduce phases shaded
 * ({@link JobPhases}), then every node of the cluster with its power and utilisation
 * ({@link UtilisationCharts}).
 */
public final class HtmlReport {
  // Chart geometry (SVG user units), package-private for the tests.
  static final int WIDTH = 760;
  static final int HEIGHT = 280;
  static final int LEFT = 64;
  static final int RIGHT = 16;
  static final int TOP = 36;
  static final int BOTTOM = 48;
  static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
  static final int PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;

  private static final String STYLE = """
      body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222}
      h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}
      table{border-collapse:collapse;margin:8px 0}
      td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}
      th.section{background:#f0f0f0;font-weight:600}
      td.num{text-align:right;font-variant-numeric:tabular-nums}
      .estimated{background:#fff3cd;border:1px solid #e0b000;padding:8px 12px;font-weight:600}
      .missing{background:#fde2e2;border:1px solid #d88;padding:8px 12px}
      svg{display:block;margin:8px 0 20px 0}
      svg text{font-size:11px;fill:#333}
      svg .title{font-size:13px;font-weight:600}
      svg .axis{stroke:#444;stroke-width:1}
      svg .grid{stroke:#e4e4e4;stroke-width:1}
      svg .power{fill:none;stroke:#1f5fa8;stroke-width:1.6}
      svg .point{fill:#1f5fa8}
      svg .gap{fill:#c62828}
      svg .phase.map{fill:#4caf50;fill-opacity:0.16}
      svg .phase.shuffle{fill:#3f51b5;fill-opacity:0.14}
      svg .phase.reduce{fill:#ff9800;fill-opacity:0.18}
      svg .phase-label{font-size:10px;fill:#555}
      .legend span{display:inline-block;margin-right:16px}
      .swatch{display:inline-block;width:12px;height:12px;vertical-align:middle;margin-right:4px}
      """;

  /** The bands' legend entries, in the page's two kinds of chart alike. */
  static final String PHASE_LEGEND = "<span><span class=\"swatch\" style=\"background:"
      + "rgba(76,175,80,0.35)\"></span>map phase</span><span><span class=\"swatch\" style=\""
      + "background:rgba(63,81,181,0.3)\"></span>shuffle phase</span><span><span class=\"swatch"
      + "\" style=\"background:rgba(255,152,0,0.4)\"></span>reduce phase</span>";

  private HtmlReport() {
  }

  /** Writes the page (UTF-8) to a local file. */
  public static void write(EnergyReportModel m, Path file) throws IOException {
    Files.writeString(file, render(m), StandardCharsets.UTF_8);
  }

  public static String render(EnergyReportModel m) {
    StringBuilder h = new StringBuilder(16_384);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>Energy report ").append(esc(m.jobId())).append("</title>\n")
        .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
    h.append("<h1>FAWN energy report: ").append(esc(m.jobId()));
    if (m.job().name() != null) {
      h.append(" (").append(esc(m.job().name())).append(')');
    }
    h.append("</h1>\n");
    if (m.estimated()) {
      h.append("<p class=\"estimated\">").append(esc(TextReport.ESTIMATED_MARK)).append(": ")
          .append(esc(String.join("; ", m.estimatedReasons()))).append("</p>\n");
    }
    if (m.historyProblem() != null) {
      h.append("<p class=\"missing\">History files could not be read: ")
          .append(esc(m.historyProblem())).append("</p>\n");
    } else if (!m.historyFound()) {
      h.append("<p class=\"missing\">History files not found in ")
          .append(esc(m.historyLocation())).append(": the node figures and charts are missing."
              + "</p>\n");
    }

    h.append("<h2>Summary</h2>\n<table class=\"summary\">\n");
    for (TextReport.Section section : TextReport.sections(m)) {
      h.append("<tr><th class=\"section\" colspan=\"2\">").append(esc(section.title()))
          .append("</th></tr>\n");
      for (TextReport.Row row : section.rows()) {
        h.append("<tr><td>").append(esc(row.label())).append("</td><td>")
            .append(esc(row.value())).append("</td></tr>\n");
      }
    }
    h.append("</table>\n");

    if (m.hasHistory()) {
      nodeTable(h, m);
      h.append("<h2>Power over the job</h2>\n<p class=\"legend\">")
          .append("<span><span class=\"swatch\" style=\"background:#1f5fa8\"></span>node power (W)"
              + "</span>")
          .append(PHASE_LEGEND)
          .append("<span><span class=\"swatch\" style=\"background:#c62828\"></span>"
              + "sample with a meter gap</span></p>\n");
      for (NodeFigures n : m.nodes()) {
        chart(h, m, n);
      }
    }
    UtilisationCharts.append(h, m);
    h.append("</body>\n</html>\n");
    return h.toString();
  }

  private static void nodeTable(StringBuilder h, EnergyReportModel m) {
    h.append("<h2>Per node (job window)</h2>\n<table class=\"nodes\">\n<tr><th>node</th>"
        + "<th>file</th><th>samples</th><th>gaps</th><th>covered s</th><th>node J</th>"
        + "<th>avg W</th><th>app J</th><th>meters</th><th>estimated</th></tr>\n");
    for (NodeFigures n : m.nodes()) {
      h.append("<tr><td>").append(esc(n.history().node())).append("</td><td>")
          .append(esc(n.history().file())).append("</td>")
          .append(num(Long.toString(n.samplesInWindow())))
          .append(num(Long.toString(n.gapSamplesInWindow())))
          .append(num(TextReport.fixed(n.coveredSeconds(), 3)))
          .append(num(TextReport.fixed(n.nodeJoules(), 3)))
          .append(num(TextReport.fixed(n.averageWatts(m.seconds()), 3)))
          .append(num(TextReport.fixed(n.appJoules(), 3)))
          .append("<td>").append(esc(n.history().meters() == null ? TextReport.NA
              : n.history().meters())).append("</td><td>")
          .append(n.history().estimated() ? esc(TextReport.ESTIMATED_MARK) : "no")
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static String num(String value) {
    return "<td class=\"num\">" + esc(value) + "</td>";
  }

  /** The time origin: the job's start, or the first sample if the start is unknown. */
  static long origin(EnergyReportModel m) {
    if (m.job().startTime() > 0) {
      return m.job().startTime();
    }
    return m.nodes().stream().flatMap(n -> n.history().samples().stream())
        .mapToLong(NodeHistory.Sample::endMillis).min().orElse(0);
  }

  /** The x axis' length in seconds: the job's wall time (or the samples' span if unknown). */
  static double domainSeconds(EnergyReportModel m) {
    double seconds = m.seconds();
    if (!(seconds > 0)) {
      long origin = origin(m);
      seconds = m.nodes().stream().flatMap(n -> n.history().samples().stream())
          .mapToLong(NodeHistory.Sample::endMillis).max().orElse(origin) - origin;
      seconds /= 1000.0;
    }
    return seconds > 0 ? seconds : 1;
  }

  /** The SVG x of a time {@code seconds} after the origin. */
  static double x(double seconds, double domainSeconds) {
    return LEFT + seconds / domainSeconds * PLOT_WIDTH;
  }

  static double y(double watts, double maxWatts) {
    return TOP + PLOT_HEIGHT - watts / maxWatts * PLOT_HEIGHT;
  }

  private static void chart(StringBuilder h, EnergyReportModel m, NodeFigures n) {
    long origin = origin(m);
    double domain = domainSeconds(m);
    long windowEnd = origin + Math.round(domain * 1000);
    List<NodeHistory.Sample> samples = new ArrayList<>();
    for (NodeHistory.Sample s : n.history().samples()) {
      if (s.endMillis() >= origin && s.endMillis() <= windowEnd) {
        samples.add(s);
      }
    }
    samples.sort(Comparator.comparingLong(NodeHistory.Sample::endMillis));
    double peak = samples.stream().mapToDouble(NodeHistory.Sample::watts).max().orElse(0);
    double yMax = niceCeiling(Math.max(peak * 1.1, 1));

    String title = "Node " + n.history().node() + " (" + n.history().file() + ")";
    h.append("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH)
        .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH)
        .append(' ').append(HEIGHT).append("\" role=\"img\" aria-label=\"").append(esc(title))
        .append("\" data-node=\"").append(esc(n.history().node())).append("\">\n");
    h.append("<text class=\"title\" x=\"").append(LEFT).append("\" y=\"20\">")
        .append(esc(title)).append(" — ").append(esc(TextReport.fixed(n.nodeJoules(), 3)))
        .append(" J, avg ").append(esc(TextReport.fixed(n.averageWatts(m.seconds()), 2)))
        .append(" W").append(n.history().estimated() ? " — " + TextReport.ESTIMATED_MARK : "")
        .append("</text>\n");

    // phases under everything else
    phaseRect(h, "map", m.mapPhase(), origin, domain);
    phaseRect(h, "shuffle", m.shufflePhase(), origin, domain);
    phaseRect(h, "reduce", m.reducePhase(), origin, domain);

    // grid and ticks
    double yStep = niceStep(yMax / 5);
    for (double w = 0; w <= yMax + 1e-9; w += yStep) {
      double yy = y(w, yMax);
      h.append(String.format(Locale.ROOT,
          "<line class=\"grid\" x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>"
              + "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
          LEFT, yy, LEFT + PLOT_WIDTH, yy, LEFT - 6, yy + 4, trim(w)));
    }
    double xStep = niceStep(domain / 8);
    for (double s = 0; s <= domain + 1e-9; s += xStep) {
      double xx = x(s, domain);
      h.append(String.format(Locale.ROOT,
          "<line class=\"axis\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>"
              + "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
          xx, TOP + PLOT_HEIGHT, xx, TOP + PLOT_HEIGHT + 4, xx, TOP + PLOT_HEIGHT + 17,
          trim(s)));
    }
    h.append(String.format(Locale.ROOT,
        "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
            + "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
        LEFT, TOP, LEFT, TOP + PLOT_HEIGHT, LEFT, TOP + PLOT_HEIGHT, LEFT + PLOT_WIDTH,
        TOP + PLOT_HEIGHT));
    h.append(String.format(Locale.ROOT,
        "<text class=\"xlabel\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds since job start"
            + "</text>\n<text class=\"ylabel\" transform=\"translate(16,%d) rotate(-90)\" "
            + "text-anchor=\"middle\">watts</text>\n",
        LEFT + PLOT_WIDTH / 2, HEIGHT - 8, TOP + PLOT_HEIGHT / 2));

    if (samples.isEmpty()) {
      h.append(String.format(Locale.ROOT,
          "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no samples in the job's window</text>\n",
          LEFT + PLOT_WIDTH / 2, TOP + PLOT_HEIGHT / 2));
    } else {
      StringBuilder points = new StringBuilder();
      for (NodeHistory.Sample s : samples) {
        if (points.length() > 0) {
          points.append(' ');
        }
        points.append(String.format(Locale.ROOT, "%.2f,%.2f",
            x((s.endMillis() - origin) / 1000.0, domain), y(s.watts(), yMax)));
      }
      h.append("<polyline class=\"power\" points=\"").append(points).append("\"/>\n");
      for (NodeHistory.Sample s : samples) {
        if (s.gap() || samples.size() == 1) {
          h.append(String.format(Locale.ROOT,
              "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"2.5\"/>\n",
              s.gap() ? "gap" : "point", x((s.endMillis() - origin) / 1000.0, domain),
              y(s.watts(), yMax)));
        }
      }
    }
    h.append("</svg>\n");
  }

  private static void phaseRect(StringBuilder h, String name, Phase p, long origin,
      double domain) {
    if (p == null) {
      return;
    }
    double from = Math.max(0, (p.startMillis() - origin) / 1000.0);
    double to = Math.min(domain, (p.finishMillis() - origin) / 1000.0);
    if (to < from) {
      return;
    }
    double x1 = x(from, domain);
    double x2 = x(to, domain);
    h.append(String.format(Locale.ROOT,
        "<rect class=\"phase %s\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\">"
            + "<title>%s phase: %s s to %s s</title></rect>\n"
            + "<text class=\"phase-label\" x=\"%.2f\" y=\"%d\">%s</text>\n",
        name, x1, TOP, x2 - x1, PLOT_HEIGHT, name, TextReport.fixed(from, 3),
        TextReport.fixed(to, 3), x1 + 3, TOP + labelRow(name) * 12, name));
  }

  /** Each band's label on its own line, as the shuffle overlaps the map phase. */
  private static int labelRow(String phase) {
    return switch (phase) {
      case "map" -> 1;
      case "shuffle" -> 2;
      default -> 3;
    };
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  static double niceStep(double raw) {
    if (!(raw > 0)) {
      return 1;
    }
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * power >= raw) {
        return m * power;
      }
    }
    return 10 * power;
  }

  static double niceCeiling(double value) {
    double step = niceStep(value / 5);
    return Math.ceil(value / step - 1e-9) * step;
  }

  private static String trim(double v) {
    if (Math.abs(v - Math.rint(v)) < 1e-9) {
      return Long.toString(Math.round(v));
    }
    String text = String.format(Locale.ROOT, "%.3f", v);
    return text.replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  /** Escapes text for HTML element content and double- or single-quoted attributes. */
  static String esc(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
            out.append(' ');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
