package org.fawnpack.energy.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A report as JSON, for scripts that collect many jobs' figures: the job, the task counters'
 * figures, the application's history files and the cluster's (every node over the job's span),
 * with the same meanings as the text report's (docs/energy-report.md). A figure that cannot be
 * computed is {@code null}; joules and watts are numbers in J and W.
 */
final class JsonReport {
  private final StringBuilder out = new StringBuilder();
  private boolean first = true;

  private JsonReport() {}

  static void write(EnergyReportModel m, Path file) throws IOException {
    Files.writeString(file, render(m), StandardCharsets.UTF_8);
  }

  static String render(EnergyReportModel m) {
    JsonReport j = new JsonReport();
    j.open();
    j.field("jobId", m.jobId()).field("applicationId", m.applicationId())
        .field("name", m.job().name()).field("state", m.job().state())
        .field("startMillis", m.job().startTime()).field("finishMillis", m.job().finishTime())
        .field("seconds", m.seconds());
    j.key("phases").open().phase("map", m.mapPhase()).phase("shuffle", m.shufflePhase())
        .phase("reduce", m.reducePhase()).field("shuffleProblem", m.phases().shuffleProblem())
        .close();
    WorkMeasure work = m.work();
    j.key("tasks").open().field("joules", m.taskJoules()).field("idleJoules", m.idleJoules())
        .field("workUnit", work.unit()).field("work", work.amount())
        .field("workPerJoule", m.workPerJoule()).field("tasksMetered",
            m.summary().tasksMetered()).field("tasksAll", m.tasksAll()).close();
    j.key("applicationHistory").open().field("location", m.historyLocation())
        .field("found", m.historyFound()).field("problem", m.historyProblem())
        .field("nodeJoules", m.nodeJoules()).field("applicationJoules", m.applicationJoules())
        .close();
    j.cluster(m);
    j.key("estimated").strings(m.estimatedReasons());
    j.close();
    return j.out.append('\n').toString();
  }

  private void cluster(EnergyReportModel m) {
    ClusterFigures figures = m.cluster();
    ClusterEnergy c = figures.energy();
    key("cluster").open().field("location", figures.location())
        .field("problem", figures.problem());
    if (c != null) {
      field("joules", c.joules()).field("slaves", c.slaveCount())
          .field("masterJoules", c.masterJoules()).field("idleShare", c.idleShare())
          .field("workPerJoule", m.clusterWorkPerJoule()).field("complete", c.complete());
      key("nodes").array();
      for (ClusterEnergy.NodeSpan n : c.nodes()) {
        ClusterEnergy.Usage u = n.usage();
        open().field("node", n.node()).field("role", n.master() ? "master" : "slave")
            .field("coverage", n.coverage().name().toLowerCase(Locale.ROOT))
            .field("joules", n.nodeMicrojoules() / 1e6)
            .field("attributedJoules", n.attributedMicrojoules() / 1e6)
            .field("coveredSeconds", n.coveredMillis() / 1000.0)
            .field("meanCpuPercent", u.meanCpuPercent())
            .field("peakMemoryBytes", known(u.peakMemoryBytes()))
            .field("diskReadBytes", known(u.diskReadBytes()))
            .field("diskWrittenBytes", known(u.diskWrittenBytes()))
            .field("netReceivedBytes", known(u.netReceivedBytes()))
            .field("netSentBytes", known(u.netSentBytes())).close();
      }
      endArray();
      key("absent").strings(c.absent());
      key("missing").strings(c.missing());
    }
    close();
  }

  /** {@code "name":{"startMillis":..,"finishMillis":..}}, or {@code null} without the phase. */
  private JsonReport phase(String name, EnergyReportModel.Phase p) {
    if (p == null) {
      return field(name, null);
    }
    return key(name).open().field("startMillis", p.startMillis())
        .field("finishMillis", p.finishMillis()).close();
  }

  private static Long known(long v) {
    return v < 0 ? null : v;
  }

  private JsonReport open() {
    comma();
    out.append('{');
    first = true;
    return this;
  }

  private JsonReport close() {
    out.append('}');
    first = false;
    return this;
  }

  private JsonReport array() {
    out.append('[');
    first = true;
    return this;
  }

  private JsonReport endArray() {
    out.append(']');
    first = false;
    return this;
  }

  private void comma() {
    if (!first) {
      out.append(',');
    }
    first = false;
  }

  private JsonReport key(String name) {
    comma();
    quote(name);
    out.append(':');
    first = true; // the value follows without a comma
    return this;
  }

  private JsonReport field(String name, Object value) {
    key(name);
    first = false;
    if (value == null) {
      out.append("null");
    } else if (value instanceof Double d) {
      out.append(Double.isNaN(d) || Double.isInfinite(d) ? "null" : Double.toString(d));
    } else if (value instanceof Number || value instanceof Boolean) {
      out.append(value);
    } else {
      quote(value.toString());
    }
    return this;
  }

  private void strings(List<String> values) {
    array();
    for (String v : values) {
      comma();
      quote(v);
    }
    endArray();
  }

  private void quote(String s) {
    out.append('"');
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (ch < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
          } else {
            out.append(ch);
          }
        }
      }
    }
    out.append('"');
  }
}
