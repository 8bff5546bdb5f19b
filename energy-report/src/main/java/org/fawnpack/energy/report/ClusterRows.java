package org.fawnpack.energy.report;

import static org.fawnpack.energy.report.TextReport.NA;
import static org.fawnpack.energy.report.TextReport.fixed;
import static org.fawnpack.energy.report.TextReport.percent;
import static org.fawnpack.energy.report.TextReport.unit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.fawnpack.energy.report.ClusterEnergy.Coverage;
import org.fawnpack.energy.report.TextReport.Row;
import org.fawnpack.energy.report.TextReport.Section;

/**
 * The report's cluster section: every node's energy over the job's span (the papers' figure),
 * beside the task counters' share of it, and which nodes the figure covers; shared by the text
 * and HTML reports.
 */
final class ClusterRows {
  private ClusterRows() {}

  static Section section(EnergyReportModel m) {
    ClusterFigures figures = m.cluster();
    ClusterEnergy c = figures.energy();
    List<Row> rows = new ArrayList<>();
    if (c == null) {
      rows.add(new Row("cluster energy", NA + " (" + figures.problem() + ")"));
      return new Section("Cluster (every node's own history, busy or idle)", rows);
    }
    long counted = c.slaveCount();
    rows.add(new Row("cluster energy", unit(fixed(c.joules(), 3), "J") + " (" + counted
        + (counted == 1 ? " slave" : " slaves") + ", job span" + (c.estimated() ? ", "
        + TextReport.ESTIMATED_MARK : "") + ")"));
    List<String> masters = c.nodes().stream().filter(ClusterEnergy.NodeSpan::master)
        .map(ClusterEnergy.NodeSpan::node).toList();
    rows.add(new Row("master energy", masters.isEmpty() ? NA + " (no node history says"
        + " role=master: fawn.energy.node.role)" : unit(fixed(c.masterJoules(), 3), "J")
        + " (" + String.join(", ", masters) + ", not in the cluster energy)"));
    WorkMeasure work = m.work();
    rows.add(new Row("cluster work/J", unit(fixed(m.clusterWorkPerJoule(), 3),
        work.unit() + "/J")));
    rows.add(new Row("cluster idle share", percent(c.idleShare())
        + " (what no container of any application got)"));
    rows.add(new Row("tasks' share", c.joules() > 0 && m.summary().energyMillijoules() > 0
        ? percent(m.taskJoules() / c.joules()) + " (task energy / cluster energy)" : NA));
    rows.add(new Row("nodes covered", coverage(c)));
    rows.add(new Row("node histories", figures.location()));
    return new Section("Cluster (every node's own history, busy or idle)", rows);
  }

  /**
   * One line per counted node: its energy and average power over the span, and beside them
   * what its CPU, memory, disks and network did (empty without cluster figures).
   */
  static String perNode(EnergyReportModel m) {
    ClusterEnergy c = m.cluster().energy();
    if (c == null || c.nodes().isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("Per node (cluster, job span)\n");
    String format = "  %-20s %-8s %12s %9s %7s %11s %12s %12s %12s %12s\n";
    out.append(String.format(Locale.ROOT, format, "node", "covers", "node J", "avg W",
        "CPU %", "peak mem MB", "disk read MB", "disk write MB", "net in MB", "net out MB"));
    for (ClusterEnergy.NodeSpan n : c.nodes()) {
      ClusterEnergy.Usage u = n.usage();
      out.append(String.format(Locale.ROOT, format, n.node(),
          n.coverage().name().toLowerCase(Locale.ROOT), fixed(n.nodeMicrojoules() / 1e6, 3),
          fixed(m.seconds() > 0 ? n.nodeMicrojoules() / 1e6 / m.seconds() : Double.NaN, 3),
          fixed(u.meanCpuPercent(), 1), megabytes(u.peakMemoryBytes()),
          megabytes(u.diskReadBytes()), megabytes(u.diskWrittenBytes()),
          megabytes(u.netReceivedBytes()), megabytes(u.netSentBytes())));
    }
    return out.toString();
  }

  private static String megabytes(long bytes) {
    return bytes < 0 ? NA : fixed(bytes / 1e6, 1);
  }

  /** Which nodes the figure covers, and how: never silently fewer than ran the job. */
  static String coverage(ClusterEnergy c) {
    List<String> whole = c.named(Coverage.WHOLE);
    StringBuilder s = new StringBuilder();
    s.append(whole.size()).append(" of ").append(c.nodes().size())
        .append(" cover the whole span");
    appendNamed(s, "partly covered", c.named(Coverage.PARTIAL));
    appendNamed(s, "history not written up to the job's end yet (ask again after the next"
        + " fawn.energy.node-history.roll-ms)", c.named(Coverage.PENDING));
    appendNamed(s, "MISSING (ran the job's containers, wrote no node history: not counted)",
        c.missing());
    appendNamed(s, "left out (not running during the job)", c.absent());
    return s.toString();
  }

  private static void appendNamed(StringBuilder s, String what, List<String> nodes) {
    if (!nodes.isEmpty()) {
      s.append("; ").append(what).append(": ").append(String.join(", ", nodes));
    }
  }
}
