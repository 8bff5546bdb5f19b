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
        "%-12s %10s %15s %14s %15s%n", "job", "wall s", "map containers", "input records",
        "output records"));
    for (JobResult row : rows) {
      out.append(String.format(Locale.ROOT, "%-12s %10.1f %15d %14d %15d%s%n", row.job(),
          row.wallSeconds(), row.mapContainers(), row.inputRecords(), row.outputRecords(),
          row.succeeded() ? "" : "  FAILED"));
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
