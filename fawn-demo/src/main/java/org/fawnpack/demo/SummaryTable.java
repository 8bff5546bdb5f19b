package org.fawnpack.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Formats job rows as a text table (with the checks below it) and as JSON. */
final class SummaryTable {

  private static final String ROW = "%-12s %7s %5s %14s %14s %10s %12s  %s%n";

  private SummaryTable() {}

  static String text(List<JobResult> rows) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, ROW, "job", "wall s", "maps",
        "input records", "output records", "joules", "work/J", "work"));
    boolean anyEstimate = false;
    for (JobResult row : rows) {
      anyEstimate |= row.energyEstimated();
      out.append(String.format(Locale.ROOT, ROW, row.job(),
          String.format(Locale.ROOT, "%.1f", row.wallSeconds()),
          row.mapContainers(),
          String.format(Locale.ROOT, "%,d", row.inputRecords()),
          String.format(Locale.ROOT, "%,d", row.outputRecords()),
          Double.isNaN(row.joules()) ? "n/a" : String.format(Locale.ROOT, "%.2f%s", row.joules(),
              row.energyEstimated() ? "*" : ""),
          Double.isNaN(row.workPerJoule()) ? "n/a"
              : String.format(Locale.ROOT, "%,.0f", row.workPerJoule()),
          row.workUnit().label() + (row.succeeded() ? "" : "  FAILED")));
    }
    if (anyEstimate) {
      out.append("* estimated: joules of the tasks' containers from a power model (idle W + CPU "
          + "utilisation x (busy W - idle W)), not a measurement\n");
    }
    List<JobResult> checked = rows.stream().filter(r -> !r.check().isEmpty()).toList();
    if (!checked.isEmpty()) {
      out.append("Checks:\n");
      for (JobResult row : checked) {
        out.append(String.format(Locale.ROOT, "  %-12s %s%s%n", row.job(),
            row.succeeded() ? "" : "FAILED: ", row.check()));
      }
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
