package org.fawnpack.energy.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.energy.report.EnergyReportModel.NodeFigures;
import org.fawnpack.energy.report.EnergyReportModel.Phase;

/**
 * The report as plain text: one {@code label : value unit} line per figure ("n/a" where it cannot
 * be computed), grouped in sections, then one line per node. The HTML report shows the same rows.
 */
public final class TextReport {
  static final String NA = "n/a";
  static final String ESTIMATED_MARK = "ESTIMATED (model)";

  /** One line of the summary. */
  record Row(String label, String value) {
  }

  /** A titled group of rows. */
  record Section(String title, List<Row> rows) {
  }

  private TextReport() {
  }

  /** The whole report, lines ending in '\n'. */
  public static String render(EnergyReportModel m) {
    StringBuilder out = new StringBuilder();
    out.append("FAWN energy report: ").append(m.jobId()).append('\n');
    if (m.estimated()) {
      out.append(String.format(Locale.ROOT, "  %-22s: %s\n", ESTIMATED_MARK,
          String.join("; ", m.estimatedReasons())));
    }
    for (Section section : sections(m)) {
      out.append(section.title()).append('\n');
      for (Row row : section.rows()) {
        out.append(String.format(Locale.ROOT, "  %-22s: %s\n", row.label(), row.value()));
      }
    }
    if (m.hasHistory()) {
      out.append("Per node (job window)\n");
      out.append(String.format(Locale.ROOT, "  %-20s %-24s %8s %6s %10s %12s %9s %12s %s\n",
          "node", "file", "samples", "gaps", "covered s", "node J", "avg W", "app J", "meters"));
      for (NodeFigures n : m.nodes()) {
        out.append(String.format(Locale.ROOT, "  %-20s %-24s %8d %6d %10s %12s %9s %12s %s%s\n",
            n.history().node(), n.history().file(), n.samplesInWindow(), n.gapSamplesInWindow(),
            fixed(n.coveredSeconds(), 3), fixed(n.nodeJoules(), 3),
            fixed(n.averageWatts(m.seconds()), 3), fixed(n.appJoules(), 3),
            n.history().meters() == null ? NA : n.history().meters(),
            n.history().estimated() ? " " + ESTIMATED_MARK : ""));
      }
    }
    out.append(ClusterRows.perNode(m));
    return out.toString();
  }

  /** The summary, shared with the HTML report. */
  static List<Section> sections(EnergyReportModel m) {
    JobEnergySummary s = m.summary();
    List<Section> sections = new ArrayList<>();

    List<Row> job = new ArrayList<>();
    job.add(new Row("job id", m.jobId()));
    job.add(new Row("application id", m.applicationId()));
    job.add(new Row("name", orNa(m.job().name())));
    job.add(new Row("user", orNa(m.job().user())));
    job.add(new Row("state", orNa(m.job().state())));
    job.add(new Row("started", m.job().startTime() > 0
        ? Instant.ofEpochMilli(m.job().startTime()).toString() : NA));
    job.add(new Row("wall time", unit(fixed(m.seconds(), 3), "s")));
    job.add(new Row("map phase", phase(m.mapPhase(), m)));
    String noShuffle = m.phases().shuffleProblem();
    job.add(new Row("shuffle phase", m.shufflePhase() == null && noShuffle != null
        ? NA + " (" + noShuffle + ")" : phase(m.shufflePhase(), m)));
    // Without the shuffle the reduce phase is the reduce tasks' whole span: say so.
    job.add(new Row("reduce phase", phase(m.reducePhase(), m)
        + (m.shufflePhase() == null && m.reducePhase() != null ? " (shuffle included)" : "")));
    sections.add(new Section("Job", job));

    List<Row> tasks = new ArrayList<>();
    tasks.add(new Row("task energy", s.metered() || s.energyMillijoules() > 0
        ? unit(fixed(m.taskJoules(), 3), "J") : NA + " (no task was metered)"));
    tasks.add(new Row("idle share", s.energyMillijoules() > 0
        ? unit(fixed(m.idleJoules(), 3), "J") + " (" + percent(m.idleShare()) + ")" : NA));
    WorkMeasure work = m.work();
    tasks.add(new Row("work/J", unit(fixed(m.workPerJoule(), 3), work.unit() + "/J")
        + " (" + work.amount() + " " + work.unit() + ")"));
    tasks.add(new Row("bytes/J", s.inputBytes() == 0 ? NA + " (no input bytes counted)"
        : unit(fixed(m.bytesPerJoule(), 3), "B/J") + " (" + s.inputBytes() + " bytes read)"));
    sections.add(new Section("Task counters (the job's task containers)", tasks));

    List<Row> nodes = new ArrayList<>();
    if (m.historyProblem() != null) {
      nodes.add(new Row("history files", "could not be read: " + m.historyProblem()));
    } else if (!m.historyFound()) {
      nodes.add(new Row("history files", "not found in " + m.historyLocation()
          + " (the collector writes them a few seconds after the application ends,"
          + " on each node that ran one of its containers)"));
    } else if (m.nodes().isEmpty()) {
      nodes.add(new Row("history files", "none in " + m.historyLocation()));
    }
    nodes.add(new Row("node energy", unit(fixed(m.nodeJoules(), 3), "J")
        + (m.hasHistory() ? " (whole nodes, job window)" : "")));
    nodes.add(new Row("average power", unit(fixed(m.averageWatts(), 3), "W")
        + (m.hasHistory() ? " (node energy / wall time)" : "")));
    nodes.add(new Row("application energy", unit(fixed(m.applicationJoules(), 3), "J")
        + (m.hasHistory() ? " (attributed to the application, ApplicationMaster included)"
            : "")));
    nodes.add(new Row("ApplicationMaster", unit(fixed(m.applicationMasterJoules(), 3), "J")));
    sections.add(new Section("Nodes (collector history files)", nodes));
    sections.add(ClusterRows.section(m));

    List<Row> coverage = new ArrayList<>();
    coverage.add(new Row("tasks metered", s.tasksMetered() + " of " + m.tasksAll()
        + (s.tasksUnmetered() > 0 ? " (" + s.tasksUnmetered() + " not metered)" : "")));
    coverage.add(new Row("task samples", s.samples() + " (" + s.gaps() + " with gaps, "
        + percent(m.counterGapShare()) + ")"));
    coverage.add(new Row("history samples", m.hasHistory()
        ? m.historySamples() + " (" + m.historyGapSamples() + " with gaps, "
            + percent(m.historyGapShare()) + ")" : NA));
    coverage.add(new Row("nodes with history", m.nodes().size()
        + (m.hasHistory() ? " (" + m.containersRecorded() + " containers recorded)" : "")));
    coverage.add(new Row("history directory", m.historyLocation()));
    coverage.add(new Row("estimated", m.estimated() ? ESTIMATED_MARK : "no (metered)"));
    sections.add(new Section("Coverage", coverage));
    return sections;
  }

  private static String phase(Phase p, EnergyReportModel m) {
    if (p == null) {
      return NA;
    }
    long origin = m.job().startTime();
    if (origin <= 0) {
      return unit(fixed((p.finishMillis() - p.startMillis()) / 1000.0, 3), "s");
    }
    return fixed((p.startMillis() - origin) / 1000.0, 3) + " s to "
        + fixed((p.finishMillis() - origin) / 1000.0, 3) + " s";
  }

  private static String orNa(String s) {
    return s == null || s.isEmpty() ? NA : s;
  }

  /** {@code value unit}, or plain "n/a". */
  static String unit(String value, String unit) {
    return NA.equals(value) ? NA : value + " " + unit;
  }

  /** Fixed decimals (no grouping), "n/a" for NaN or infinite values. */
  static String fixed(double value, int decimals) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return NA;
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }

  static String percent(double share) {
    return Double.isNaN(share) ? NA : String.format(Locale.ROOT, "%.1f %%", share * 100);
  }
}
