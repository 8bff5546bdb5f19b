package org.fawnpack.demo;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.fawnpack.jobs.LogCount;
import org.fawnpack.jobs.LogCount2;
import org.fawnpack.jobs.WordCount;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.SampleInputs;

/**
 * The demo's four count jobs on one cluster: writes many small text and log files (the same
 * files on every cluster: a fixed seed), runs each baseline beside its optimised twin, and
 * checks the twins agree.
 */
final class CountJobsDemo {
  private static final Path TEXT = new Path("/demo/in/text");
  private static final Path LOGS = new Path("/demo/in/logs");

  private final DemoOptions options;
  private final PrintStream out;

  CountJobsDemo(DemoOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  /** Writes the inputs to {@code cluster} and runs the four jobs there, a row each. */
  List<JobResult> run(EmbeddedCluster cluster, DemoJobRunner runner) throws Exception {
    FileSystem fs = cluster.fileSystem();
    SampleInputs inputs = new SampleInputs(2016, 20_000);
    inputs.writeTextFiles(fs, TEXT, options.textFiles(), options.textFileKb() * 1024,
        i -> progress("Writing text files", i + 1, options.textFiles()));
    inputs.writeLogFiles(fs, LOGS, options.logFiles(), options.logFileKb() * 1024,
        i -> progress("Writing log files", i + 1, options.logFiles()));
    List<JobResult> rows = new ArrayList<>();
    rows.add(runner.run(new WordCount(), WorkUnit.INPUT_RECORDS, TEXT.toString(),
        "/demo/out/wordcount"));
    rows.add(runner.run(new WordCount2(), WorkUnit.INPUT_RECORDS, TEXT.toString(),
        "/demo/out/wordcount2"));
    checkSame(fs, rows, "/demo/out/wordcount", "/demo/out/wordcount2");
    rows.add(runner.run(new LogCount(), WorkUnit.INPUT_RECORDS, LOGS.toString(),
        "/demo/out/logcount"));
    rows.add(runner.run(new LogCount2(), WorkUnit.INPUT_RECORDS, LOGS.toString(),
        "/demo/out/logcount2"));
    checkSame(fs, rows, "/demo/out/logcount", "/demo/out/logcount2");
    return rows;
  }

  /**
   * The optimised twin (the last row) must produce exactly the baseline's output; its row says
   * so.
   */
  private void checkSame(FileSystem fs, List<JobResult> rows, String baseline, String optimised)
      throws Exception {
    Map<String, Long> a = JobOutputs.read(fs, new Path(baseline));
    Map<String, Long> b = JobOutputs.read(fs, new Path(optimised));
    if (!a.equals(b)) {
      throw new IllegalStateException(optimised + " differs from " + baseline + ": "
          + a.size() + " vs " + b.size() + " keys");
    }
    out.printf("Outputs of %s and %s agree (%d keys).%n", baseline, optimised, a.size());
    int twin = rows.size() - 1;
    if (rows.get(twin).succeeded()) {
      rows.set(twin, rows.get(twin).checked(String.format(Locale.ROOT,
          "same output as %s (%,d keys)", baseline.substring(baseline.lastIndexOf('/') + 1),
          a.size())));
    }
  }

  private void progress(String what, int done, int total) {
    if (done == total || done % Math.max(1, total / 10) == 0) {
      out.printf("%s: %d/%d%n", what, done, total);
    }
  }
}
