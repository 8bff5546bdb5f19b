package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.fawnpack.minicluster.EmbeddedCluster;

/**
 * The benchmark's markdown section. It replaces the section between its markers in the report
 * file and leaves the rest of the file (other benchmarks) alone.
 */
final class BenchmarkReport {

  static final String STOCK = "stock WordCount";
  static final String STOCK_COMBINED = "stock WordCount + CombineTextInputFormat";
  private static final String BEGIN = "<!-- BEGIN count-benchmark (written by CountBenchmark) -->";
  private static final String END = "<!-- END count-benchmark -->";

  /** One family of variants over one input. */
  static final class Family {
    final int files;
    final long bytes;
    Measurements measurements;
    /** The single-JVM reference's times, or null when the family has none. */
    RoundStats reference;

    Family(int files, long bytes) {
      this.files = files;
      this.bytes = bytes;
    }
  }

  private final BenchmarkOptions options;
  private final EmbeddedCluster cluster;
  Family wordCount;
  Family logCount;
  Family big;
  double totalMinutes;

  BenchmarkReport(BenchmarkOptions options, EmbeddedCluster cluster) {
    this.options = options;
    this.cluster = cluster;
  }

  String markdown() {
    StringBuilder md = new StringBuilder();
    md.append(BEGIN).append('\n');
    md.append("## Word count and log count on the embedded cluster\n\n");
    md.append(String.format(Locale.ROOT,
        "- date: %s%n- machine: %d cores, %.0f GiB RAM, %s %s, Java %s%n"
            + "- cluster: %d NodeManagers x %d vcores / %d MB (embedded, one JVM), "
            + "Hadoop 3.5.0; stock examples 3.4.2%n- command: `%s` (%.0f minutes)%n"
            + "- times are wall seconds from submission to completion, median of the runs, and "
            + "their mean ± sample standard deviation (– for a single run); "
            + "a variant slower than %d s ran once%n%n",
        ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
        Runtime.getRuntime().availableProcessors(), Machine.totalMemoryGib(),
        System.getProperty("os.name"), System.getProperty("os.arch"),
        System.getProperty("java.version"), cluster.spec().nodeManagers(),
        cluster.spec().nodeVcores(), cluster.spec().nodeMemoryMb(), options.command(),
        totalMinutes, options.repLimitSeconds()));
    if (wordCount != null) {
      md.append(familyTable("Word count", wordCount, STOCK));
      md.append(String.format(Locale.ROOT,
          "%nSingle-JVM reference (%d threads, StringTokenizer + HashMap): %s; "
              + "wordcount2 reaches %.1f %% of its throughput.%n%n",
          options.threads(), reference(wordCount.reference),
          100 * wordCount.reference.median() / wordCount.measurements.median("wordcount2")));
    }
    if (logCount != null) {
      md.append(familyTable("Log count", logCount, "logcount"));
      md.append('\n');
    }
    if (big != null) {
      md.append(familyTable("Large input", big, "wordcount2"));
      md.append(String.format(Locale.ROOT,
          "%nSingle-JVM reference (%d threads): %s; wordcount2 reaches %.1f %% of its "
              + "throughput.%n%n",
          options.threads(), reference(big.reference),
          100 * big.reference.median() / big.measurements.median("wordcount2")));
    }
    md.append(END).append('\n');
    return md.toString();
  }

  /** "1.60 s (median of 3; mean ± sd 1.62 ± 0.03 s)". */
  static String reference(RoundStats reference) {
    return String.format(Locale.ROOT, "%.2f s (median of %d; mean ± sd %s s)",
        reference.median(), reference.runs(), reference.meanSd("%.2f"));
  }

  static String familyTable(String title, Family family, String baseline) {
    Measurements m = family.measurements;
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "### %s: %d files, %.1f MB%n%n", title, family.files, family.bytes / 1e6));
    boolean combined = m.has(STOCK_COMBINED);
    md.append("| variant | runs | median s | min s | max s | mean ± sd s "
        + "| map containers (last run) | speed-up vs ")
        .append(baseline).append(combined ? " | speed-up vs " + STOCK_COMBINED : "").append(" |\n");
    md.append("|---|---|---|---|---|---|---|---|").append(combined ? "---|" : "").append('\n');
    for (String variant : m.variants()) {
      RoundStats s = m.stats(variant);
      md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %s | %d | %.2fx |",
          variant, s.runs(), s.median(), s.min(), s.max(), s.meanSd("%.1f"),
          m.maps(variant), m.median(baseline) / s.median()));
      if (combined) {
        md.append(String.format(Locale.ROOT, " %.2fx |",
            m.median(STOCK_COMBINED) / m.median(variant)));
      }
      md.append('\n');
    }
    return md.toString();
  }

  /** Replaces this benchmark's section in the file, or appends it. */
  void writeTo(Path file) throws IOException {
    ReportSections.write(file, BEGIN, END, markdown());
  }
}
