package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * The count jobs' reducers, one against one per vcore (issue 33 item 7: seed 003 ran one per
 * vcore), in a section of its own so that running it alone ({@code --only reducers}) leaves the
 * count benchmark's tables in place.
 */
final class ReducersReport {
  static final String ONE = ", 1 reducer";
  static final String PER_VCORE = ", 1 reducer per vcore";
  private static final String BEGIN = "<!-- BEGIN reducers-benchmark (written by CountBenchmark)"
      + " -->";
  private static final String END = "<!-- END reducers-benchmark -->";

  private final BenchmarkOptions options;
  private final EmbeddedCluster cluster;
  BenchmarkReport.Family words;
  BenchmarkReport.Family logs;
  int reducersPerVcore;
  double minutes;

  ReducersReport(BenchmarkOptions options, EmbeddedCluster cluster) {
    this.options = options;
    this.cluster = cluster;
  }

  String markdown() {
    StringBuilder md = new StringBuilder(BEGIN).append('\n');
    md.append("## Count jobs: one reducer against one per vcore\n\n");
    md.append(String.format(Locale.ROOT,
        "- date: %s%n- machine: %s%n"
            + "- cluster: %d NodeManagers x %d vcores / %d MB (embedded, one JVM, the"
            + " ApplicationMaster on the slaves), so one per vcore = %d reducers%n"
            + "- command: `%s` (%.0f minutes); wall seconds from submission to completion,"
            + " median and mean ± sample sd over the rounds; each pair's outputs checked"
            + " identical%n%n",
        ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
        Machine.describe(), cluster.spec().nodeManagers(),
        cluster.spec().nodeVcores(), cluster.spec().nodeMemoryMb(), reducersPerVcore,
        options.command(), minutes));
    if (words != null) {
      md.append(BenchmarkReport.familyTable("Word count", words, "wordcount2" + ONE))
          .append('\n');
    }
    if (logs != null) {
      md.append(BenchmarkReport.familyTable("Log count", logs, "logcount2" + ONE))
          .append('\n');
    }
    return md.append(END).append('\n').toString();
  }

  void writeTo(Path file) throws IOException {
    ReportSections.write(file, BEGIN, END, markdown());
  }
}
