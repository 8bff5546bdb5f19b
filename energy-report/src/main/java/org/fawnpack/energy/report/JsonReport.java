package org.fawnpack.energy.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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
  private final StringWriter text = new StringWriter();
  private final JsonGenerator out;

  private JsonReport() {
    try {
      out = new JsonFactory().createGenerator(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

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
    j.write(JsonGenerator::flush);
    return j.text.append('\n').toString();
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
    return write(JsonGenerator::writeStartObject);
  }

  private JsonReport close() {
    return write(JsonGenerator::writeEndObject);
  }

  private JsonReport array() {
    return write(JsonGenerator::writeStartArray);
  }

  private JsonReport endArray() {
    return write(JsonGenerator::writeEndArray);
  }

  private JsonReport key(String name) {
    return write(g -> g.writeFieldName(name));
  }

  /** A figure: null, and a NaN or infinite double (not computable), as JSON null. */
  private JsonReport field(String name, Object value) {
    key(name);
    return write(g -> {
      if (value == null || value instanceof Double d && (d.isNaN() || d.isInfinite())) {
        g.writeNull();
      } else if (value instanceof Double d) {
        g.writeNumber(d);
      } else if (value instanceof Integer || value instanceof Long) {
        g.writeNumber(((Number) value).longValue());
      } else if (value instanceof Boolean b) {
        g.writeBoolean(b);
      } else {
        g.writeString(value.toString());
      }
    });
  }

  private void strings(List<String> values) {
    array();
    values.forEach(v -> write(g -> g.writeString(v)));
    endArray();
  }

  private interface Step {
    void on(JsonGenerator generator) throws IOException;
  }

  /** One generator step; writing to a StringWriter cannot fail for I/O. */
  private JsonReport write(Step step) {
    try {
      step.on(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }
}
