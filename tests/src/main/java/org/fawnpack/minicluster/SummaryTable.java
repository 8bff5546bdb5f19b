package org.fawnpack.minicluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Formats job rows as a text table and as JSON. */
final class SummaryTable {

  private SummaryTable() {}

  static String text(List<JobResult> rows) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
        "%-12s %8s %8s %13s %14s %10s %11s%n", "job", "wall s", "maps", "input records",
        "output records", "joules", "records/J"));
    boolean anyEstimate = false;
    for (JobResult row : rows) {
      anyEstimate |= row.energyEstimated();
      out.append(String.format(Locale.ROOT, "%-12s %8.1f %8d %13d %14d %10s %11s%s%n", row.job(),
          row.wallSeconds(), row.mapContainers(), row.inputRecords(), row.outputRecords(),
          Double.isNaN(row.joules()) ? "n/a" : String.format(Locale.ROOT, "%.2f%s", row.joules(),
              row.energyEstimated() ? "*" : ""),
          Double.isNaN(row.recordsPerJoule()) ? "n/a"
              : String.format(Locale.ROOT, "%,.0f", row.recordsPerJoule()),
          row.succeeded() ? "" : "  FAILED"));
    }
    if (anyEstimate) {
      out.append("* estimated: joules of the tasks' containers from a power model (idle W + CPU "
          + "utilisation x (busy W - idle W)), not a measurement\n");
    }
    return out.toString();
  }

  static void writeJson(List<JobResult> rows, Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    String json = rows.stream().map(r -> "  " + r.toJson())
        .collect(Collectors.joining(",\n", "[\n", "\n]\n"));
    Files.writeString(file, json);
  }
}
