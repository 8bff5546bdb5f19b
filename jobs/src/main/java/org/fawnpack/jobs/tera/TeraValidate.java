package org.fawnpack.jobs.tera;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.FileJobTool;
import org.fawnpack.jobs.FrameworkTuning;

/**
 * {@code teravalidate [--rows N] [--checksum HEX] <in> <out>}: checks that sort-benchmark data
 * (terasort's part files, read in name order) is sorted within and across files, and sums the
 * records' CRC32s into the checksum teragen printed. One map per file, one reducer; the report
 * goes to {@code <out>/part-r-00000} and is printed. Exit codes: 0 sorted (and matching the
 * expected rows and checksum when given), 3 not sorted or not matching, 1 the job failed,
 * 2 bad arguments.
 */
public class TeraValidate extends FileJobTool {
  /** Exit code for data that is not sorted or does not match --rows / --checksum. */
  public static final int EXIT_INVALID = 3;

  private long expectedRows = -1;
  private Checksum128 expectedChecksum;
  private ValidationReport report;
  private final List<String> problems = new ArrayList<>();

  public TeraValidate() {
  }

  protected TeraValidate(PrintStream out) {
    super(out);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new TeraValidate(), args));
  }

  @Override
  public String name() {
    return "teravalidate";
  }

  @Override
  public String description() {
    return "Checks that sort-benchmark data is sorted and prints its checksum; with --rows"
        + " and --checksum (from teragen) also that none is missing. Exit 3 when invalid.";
  }

  @Override
  protected String synopsis() {
    return "[--rows N] [--checksum HEX] <in> [<in>...] <out>";
  }

  @Override
  protected String[] parseOptions(String[] args) throws UsageException {
    expectedRows = -1;
    expectedChecksum = null;
    int i = 0;
    while (i < args.length && args[i].startsWith("--")) {
      String option = args[i];
      if (i + 1 >= args.length) {
        throw new UsageException(option + " needs a value");
      }
      String value = args[i + 1];
      switch (option) {
        case "--rows" -> expectedRows = TeraGen.parseRows(value);
        case "--checksum" -> {
          try {
            expectedChecksum = Checksum128.parse(value);
          } catch (NumberFormatException e) {
            throw new UsageException("--checksum: " + e.getMessage());
          }
        }
        default -> throw new UsageException("unknown option " + option
            + " (options: --rows N, --checksum HEX)");
      }
      i += 2;
    }
    return Arrays.copyOfRange(args, i, args.length);
  }

  @Override
  protected Job createJob(List<Path> inputs, Path output) throws IOException {
    FrameworkTuning.apply(getConf());
    Job job = newJob(inputs, output);
    job.getConfiguration().setInt(SortRecordInputFormat.SPLITS, 0);
    job.setInputFormatClass(SortRecordInputFormat.class);
    job.setMapperClass(ValidateMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(FileSummary.class);
    job.setReducerClass(ValidateReducer.class);
    job.setNumReduceTasks(1);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    return job;
  }

  @Override
  protected void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    report = null;
    problems.clear();
    super.printResult(job, ok);
    if (!ok) {
      return;
    }
    report = readReport(job);
    out().printf("teravalidate: %d records in %d files, checksum %s, %d misordered%n",
        report.records(), report.files(), report.checksum(), report.misordered());
    for (String example : report.examples()) {
      out().println("teravalidate: misorder in " + example);
    }
    if (report.misordered() > 0) {
      problems.add(report.misordered() + " misordered record(s)");
    }
    if (expectedRows >= 0 && report.records() != expectedRows) {
      problems.add(report.records() + " records, expected " + expectedRows);
    }
    if (expectedChecksum != null && !expectedChecksum.equals(report.checksum())) {
      problems.add("checksum " + report.checksum() + ", expected " + expectedChecksum);
    }
    out().println(problems.isEmpty() ? "teravalidate: VALID (sorted"
        + (expectedRows >= 0 ? ", rows match" : "")
        + (expectedChecksum != null ? ", checksum matches" : "") + ")"
        : "teravalidate: INVALID: " + String.join("; ", problems));
  }

  @Override
  protected int exitCode(Job job, boolean ok) {
    if (!ok) {
      return 1;
    }
    return problems.isEmpty() ? 0 : EXIT_INVALID;
  }

  /** The last run's report, or null when the job failed or has not run. */
  public ValidationReport report() {
    return report;
  }

  /** What made the last run's data invalid; empty when it was valid. */
  public List<String> problems() {
    return List.copyOf(problems);
  }

  private static ValidationReport readReport(Job job) throws IOException {
    Path dir = FileOutputFormat.getOutputPath(job);
    FileSystem fs = dir.getFileSystem(job.getConfiguration());
    List<String> lines = new ArrayList<>();
    for (FileStatus part : fs.listStatus(dir, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(part.getPath()),
          StandardCharsets.UTF_8))) {
        in.lines().forEach(lines::add);
      }
    }
    return ValidationReport.parse(lines);
  }
}
