package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.HtmlReport.esc;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.fawnpack.energy.report.EnergyReportModel.Phase;
import org.fawnpack.energy.report.NodeSegmentReader.NodeSample;

/**
 * The HTML report's cluster part: per counted node, one SVG of stacked panels over the job's
 * span — power, CPU busy %, memory in use, disk and network throughput — with the map, shuffle
 * and reduce phases as bands ({@link JobPhases}), from the node's own history (what the seeds
 * put side by side to see why a wimpy node is slow: CPU-bound, short of memory, waiting on its
 * disk or its network).
 */
final class UtilisationCharts {
  private static final int WIDTH = HtmlReport.WIDTH;
  private static final int LEFT = HtmlReport.LEFT;
  private static final int PLOT_WIDTH = HtmlReport.PLOT_WIDTH;
  private static final int PANEL = 64; // each panel's plot height
  private static final int GAP = 22; // title line above each panel
  private static final int TOP = 30;

  /** One panel: its title, unit and how a sample gives its value (NaN: unknown). */
  private record Panel(String title, String css, ToDoubleFunction<NodeSample> value) {}

  private static final List<Panel> PANELS = List.of(
      new Panel("power, W", "use-power", NodeSample::watts),
      new Panel("CPU busy, %", "use-cpu", s -> s.cpuPercent() < 0 ? Double.NaN : s.cpuPercent()),
      new Panel("memory in use, MB", "use-mem", s -> s.memoryUsedBytes() < 0 ? Double.NaN
          : s.memoryUsedBytes() / 1e6),
      new Panel("disk read + written, MB", "use-disk", s -> s.diskReadBytes() < 0
          || s.diskWrittenBytes() < 0 ? Double.NaN
          : (s.diskReadBytes() + s.diskWrittenBytes()) / 1e6),
      new Panel("network in + out, MB", "use-net", s -> s.netReceivedBytes() < 0
          || s.netSentBytes() < 0 ? Double.NaN
          : (s.netReceivedBytes() + s.netSentBytes()) / 1e6));

  private UtilisationCharts() {}

  /** Appends the section; nothing without cluster figures. */
  static void append(StringBuilder h, EnergyReportModel m) {
    ClusterEnergy c = m.cluster().energy();
    if (c == null || c.nodes().isEmpty() || m.job().startTime() <= 0 || !(m.seconds() > 0)) {
      return;
    }
    h.append("<h2 id=\"utilisation\">Every node over the job: power and utilisation</h2>\n"
        + "<p class=\"legend\">From each node's own history (busy or idle); per sample interval."
        + " Bands: " + HtmlReport.PHASE_LEGEND + "</p>\n");
    for (ClusterEnergy.NodeSpan n : c.nodes()) {
      node(h, m, n);
    }
  }

  private static void node(StringBuilder h, EnergyReportModel m, ClusterEnergy.NodeSpan n) {
    long origin = m.job().startTime();
    double domain = m.seconds();
    int height = TOP + PANELS.size() * (PANEL + GAP) + 24;
    String title = "Node " + n.node() + (n.master() ? " (master)" : "") + " — "
        + TextReport.fixed(n.nodeMicrojoules() / 1e6, 3) + " J, "
        + n.coverage().name().toLowerCase(Locale.ROOT) + " span";
    h.append("<svg class=\"chart utilisation\" xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        .append(WIDTH).append("\" height=\"").append(height).append("\" viewBox=\"0 0 ")
        .append(WIDTH).append(' ').append(height).append("\" role=\"img\" aria-label=\"")
        .append(esc(title)).append("\" data-node=\"").append(esc(n.node())).append("\">\n")
        .append("<text class=\"title\" x=\"").append(LEFT).append("\" y=\"18\">")
        .append(esc(title)).append("</text>\n");
    int top = TOP;
    for (Panel p : PANELS) {
      panel(h, p, n.samples(), origin, domain, top + GAP - 6, m);
      top += PANEL + GAP;
    }
    h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
        + "seconds since job start (0 to %s)</text>\n", LEFT + PLOT_WIDTH / 2, height - 6,
        TextReport.fixed(domain, 1)));
    h.append("</svg>\n");
  }

  private static void panel(StringBuilder h, Panel p, List<NodeSample> samples, long origin,
      double domain, int top, EnergyReportModel m) {
    band(h, m.mapPhase(), "map", origin, domain, top);
    band(h, m.shufflePhase(), "shuffle", origin, domain, top);
    band(h, m.reducePhase(), "reduce", origin, domain, top);
    double max = samples.stream().mapToDouble(p.value()).filter(v -> !Double.isNaN(v)).max()
        .orElse(Double.NaN);
    double yMax = Double.isNaN(max) ? 1 : HtmlReport.niceCeiling(Math.max(max * 1.1, 1e-6));
    h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>"
        + "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>"
        + "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", LEFT, top - 4,
        esc(p.title()), LEFT - 6, top + 8, TextReport.fixed(yMax, yMax < 10 ? 2 : 0), LEFT,
        top + PANEL, LEFT + PLOT_WIDTH, top + PANEL));
    StringBuilder points = new StringBuilder();
    for (NodeSample s : samples) {
      double v = p.value().applyAsDouble(s);
      if (Double.isNaN(v)) {
        continue;
      }
      points.append(points.length() > 0 ? " " : "").append(String.format(Locale.ROOT,
          "%.2f,%.2f", HtmlReport.x((s.endMillis() - origin) / 1000.0, domain),
          top + PANEL - v / yMax * PANEL));
    }
    if (points.length() == 0) {
      h.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">not known on this node"
          + "</text>\n", LEFT + 8, top + PANEL / 2));
    } else {
      h.append("<polyline class=\"").append(p.css()).append("\" fill=\"none\" stroke=\"")
          .append(colour(p.css())).append("\" stroke-width=\"1.5\" points=\"").append(points)
          .append("\"/>\n");
    }
  }

  private static void band(StringBuilder h, Phase phase, String name, long origin,
      double domain, int top) {
    if (phase == null) {
      return;
    }
    double from = Math.max(0, (phase.startMillis() - origin) / 1000.0);
    double to = Math.min(domain, (phase.finishMillis() - origin) / 1000.0);
    if (to >= from) {
      double x1 = HtmlReport.x(from, domain);
      h.append(String.format(Locale.ROOT, "<rect class=\"phase %s\" x=\"%.2f\" y=\"%d\""
          + " width=\"%.2f\" height=\"%d\"><title>%s phase: %s s to %s s</title></rect>\n",
          name, x1, top, HtmlReport.x(to, domain) - x1, PANEL, name, TextReport.fixed(from, 3),
          TextReport.fixed(to, 3)));
    }
  }

  private static String colour(String css) {
    return switch (css) {
      case "use-power" -> "#1f5fa8";
      case "use-cpu" -> "#8e24aa";
      case "use-mem" -> "#00897b";
      case "use-disk" -> "#6d4c41";
      default -> "#f4511e";
    };
  }
}
