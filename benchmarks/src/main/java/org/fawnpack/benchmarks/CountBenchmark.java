package org.fawnpack.benchmarks;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.jobs.LogCount;
import org.fawnpack.jobs.LogCount2;
import org.fawnpack.jobs.WordCount;
import org.fawnpack.jobs.WordCount2;
import org.fawnpack.minicluster.EmbeddedCluster;
import org.fawnpack.minicluster.JobOutputs;
import org.fawnpack.minicluster.SampleInputs;

/**
 * The word/log count benchmark of the foundation issue, all in one run on one embedded cluster:
 * stock WordCount (one map per file), stock WordCount on CombineTextInputFormat hand-tuned to one
 * split per vcore, our wordcount and wordcount2; logcount vs logcount2; a plain multithreaded
 * single-JVM word count as the no-framework reference, at the small and the large input size.
 *
 * <p>Every variant runs once per round; a variant whose first run took under
 * {@code --rep-limit} seconds runs in every round (default 3), a slower one only once. Outputs
 * of each family are checked to be identical before any time is reported.
 */
public final class CountBenchmark {

  private final BenchmarkOptions options;
  private final PrintStream out;
  private EmbeddedCluster cluster;
  private FileSystem fs;

  CountBenchmark(BenchmarkOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    if (java.util.Arrays.asList(args).contains("--help")) {
      System.out.println(BenchmarkOptions.USAGE);
      return;
    }
    BenchmarkOptions options;
    try {
      options = BenchmarkOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("benchmark: " + e.getMessage());
      System.err.println(BenchmarkOptions.USAGE);
      System.exit(JobTool.EXIT_USAGE);
      return;
    }
    new CountBenchmark(options, System.out).run();
    System.exit(0);
  }

  void run() throws Exception {
    long started = System.nanoTime();
    try (EmbeddedCluster c = EmbeddedCluster.builder().name("bench")
        .baseDir(Path.of("target", "bench", "cluster")).build().start()) {
      cluster = c;
      fs = c.fileSystem();
      BenchmarkReport report = new BenchmarkReport(options, cluster);
      if (options.runs("wordcount")) {
        report.wordCount = wordCountFamily();
      }
      if (options.runs("logcount")) {
        report.logCount = logCountFamily();
      }
      if (options.runs("big")) {
        report.big = bigInput();
      }
      report.totalMinutes = (System.nanoTime() - started) / 60e9;
      if (report.wordCount != null || report.logCount != null || report.big != null) {
        String markdown = report.markdown();
        out.println();
        out.println(markdown);
        report.writeTo(options.report());
      }
      if (options.runs("reducers")) {
        long reducersStarted = System.nanoTime();
        ReducersReport reducers = reducers();
        reducers.minutes = (System.nanoTime() - reducersStarted) / 60e9;
        out.println();
        out.println(reducers.markdown());
        reducers.writeTo(options.report());
      }
      out.println("Report written to " + options.report().toAbsolutePath());
    }
  }

  private BenchmarkReport.Family wordCountFamily() throws Exception {
    org.apache.hadoop.fs.Path in = textInput();
    long total = totalBytes(in);
    long perVcore = (total + cluster.totalVcores() - 1) / cluster.totalVcores();
    Map<String, Variant> variants = new LinkedHashMap<>();
    variants.put(BenchmarkReport.STOCK, (o) -> runJob(StockJobs.wordCount(conf(), in, o)));
    variants.put(BenchmarkReport.STOCK_COMBINED,
        (o) -> runJob(StockJobs.wordCountCombined(conf(), in, o, perVcore)));
    variants.put("wordcount", (o) -> runTool(new WordCount(), in, o));
    variants.put("wordcount2", (o) -> runTool(new WordCount2(), in, o));
    BenchmarkReport.Family family = new BenchmarkReport.Family(options.textFiles(), total);
    family.measurements = rounds("wordcount", variants);
    family.reference = reference("wordcount", in, family);
    return family;
  }

  private BenchmarkReport.Family logCountFamily() throws Exception {
    org.apache.hadoop.fs.Path in = logInput();
    Map<String, Variant> variants = new LinkedHashMap<>();
    variants.put("logcount", (o) -> runTool(new LogCount(), in, o));
    variants.put("logcount2", (o) -> runTool(new LogCount2(), in, o));
    BenchmarkReport.Family family = new BenchmarkReport.Family(options.logFiles(), totalBytes(in));
    family.measurements = rounds("logcount", variants);
    return family;
  }

  /**
   * wordcount2 and logcount2 with one reducer against one per vcore (their default), each pair's
   * outputs checked identical.
   */
  private ReducersReport reducers() throws Exception {
    ReducersReport report = new ReducersReport(options, cluster);
    report.reducersPerVcore = org.fawnpack.input.ClusterVcores.forJob(conf());
    org.apache.hadoop.fs.Path text = textInput();
    org.apache.hadoop.fs.Path logs = logInput();
    Map<String, Variant> words = new LinkedHashMap<>();
    words.put("wordcount2" + ReducersReport.ONE,
        (o) -> runTool(new WordCount2(), text, o, "-Dmapreduce.job.reduces=1"));
    words.put("wordcount2" + ReducersReport.PER_VCORE, (o) -> runTool(new WordCount2(), text, o));
    report.words = new BenchmarkReport.Family(options.textFiles(), totalBytes(text));
    report.words.measurements = rounds("reducers-words", words);
    Map<String, Variant> logVariants = new LinkedHashMap<>();
    logVariants.put("logcount2" + ReducersReport.ONE,
        (o) -> runTool(new LogCount2(), logs, o, "-Dmapreduce.job.reduces=1"));
    logVariants.put("logcount2" + ReducersReport.PER_VCORE,
        (o) -> runTool(new LogCount2(), logs, o));
    report.logs = new BenchmarkReport.Family(options.logFiles(), totalBytes(logs));
    report.logs.measurements = rounds("reducers-logs", logVariants);
    return report;
  }

  /** The text files, written once per run (the word count and reducers parts share them). */
  private org.apache.hadoop.fs.Path textInput() throws IOException {
    org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/bench/in/text");
    if (!fs.exists(in)) {
      new SampleInputs(2016, 20_000).writeTextFiles(fs, in, options.textFiles(),
          options.textKb() * 1024, i -> progress("text files", i + 1, options.textFiles()));
    }
    return in;
  }

  /** The log files, written once per run (the log count and reducers parts share them). */
  private org.apache.hadoop.fs.Path logInput() throws IOException {
    org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/bench/in/logs");
    if (!fs.exists(in)) {
      new SampleInputs(2016, 20_000).writeLogFiles(fs, in, options.logFiles(),
          options.logKb() * 1024, i -> progress("log files", i + 1, options.logFiles()));
    }
    return in;
  }

  /** wordcount2 and the single-JVM reference on the large input. */
  private BenchmarkReport.Family bigInput() throws Exception {
    org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path("/bench/in/big");
    new SampleInputs(2017, 20_000).writeTextFiles(fs, in, options.textFiles(),
        options.bigKb() * 1024, i -> progress("large text files", i + 1, options.textFiles()));
    Map<String, Variant> variants = new LinkedHashMap<>();
    variants.put("wordcount2", (o) -> runTool(new WordCount2(), in, o));
    BenchmarkReport.Family family = new BenchmarkReport.Family(options.textFiles(), totalBytes(in));
    family.measurements = rounds("big", variants);
    family.reference = reference("big", in, family);
    return family;
  }

  /** One variant run: returns its map containers; writes its output under the given dir. */
  private interface Variant {
    long run(org.apache.hadoop.fs.Path outDir) throws Exception;
  }

  private Measurements rounds(String family, Map<String, Variant> variants) throws Exception {
    Measurements measurements = new Measurements();
    List<String> repeat = new ArrayList<>(variants.keySet());
    for (int round = 1; round <= options.reps() && !repeat.isEmpty(); round++) {
      for (String name : List.copyOf(repeat)) {
        org.apache.hadoop.fs.Path outDir =
            new org.apache.hadoop.fs.Path("/bench/out/" + family + "/" + slug(name) + "-" + round);
        out.printf("[%s round %d] %s ...%n", family, round, name);
        long start = System.nanoTime();
        long maps = variants.get(name).run(outDir);
        double seconds = (System.nanoTime() - start) / 1e9;
        measurements.add(name, seconds, maps);
        out.printf("[%s round %d] %s: %.1f s, %d maps%n", family, round, name, seconds, maps);
        if (round == 1) {
          checkSameOutput(family, variants.keySet().iterator().next(), name);
          if (seconds >= options.repLimitSeconds()) {
            repeat.remove(name);
          }
        }
        if (round > 1) {
          fs.delete(outDir, true);
        }
      }
    }
    return measurements;
  }

  /** Every variant of a family must write exactly what its first variant wrote. */
  private void checkSameOutput(String family, String first, String name) throws IOException {
    if (first.equals(name)) {
      return;
    }
    Map<String, Long> expected = JobOutputs.read(fs, outputOfRound1(family, first));
    Map<String, Long> actual = JobOutputs.read(fs, outputOfRound1(family, name));
    if (!expected.equals(actual)) {
      throw new IllegalStateException(name + " wrote different output than " + first
          + ": " + actual.size() + " vs " + expected.size() + " keys");
    }
  }

  private static org.apache.hadoop.fs.Path outputOfRound1(String family, String variant) {
    return new org.apache.hadoop.fs.Path("/bench/out/" + family + "/" + slug(variant) + "-1");
  }

  /** Three single-JVM counts' times, checked against the family's first job output. */
  private RoundStats reference(String familyName, org.apache.hadoop.fs.Path in,
      BenchmarkReport.Family family) throws Exception {
    Measurements m = new Measurements();
    Map<String, Long> counts = null;
    for (int rep = 0; rep < 3; rep++) {
      long start = System.nanoTime();
      counts = SingleJvmWordCount.count(fs, in, options.threads());
      m.add("reference", (System.nanoTime() - start) / 1e9, 0);
    }
    String first = family.measurements.variants().get(0);
    if (!counts.equals(JobOutputs.read(fs, outputOfRound1(familyName, first)))) {
      throw new IllegalStateException("the single-JVM count differs from " + first);
    }
    RoundStats times = m.stats("reference");
    out.printf("single-JVM reference (%d threads): %s%n", options.threads(),
        BenchmarkReport.reference(times));
    return times;
  }

  private long runTool(JobTool tool, org.apache.hadoop.fs.Path in, org.apache.hadoop.fs.Path o,
      String... options) throws Exception {
    List<String> args = new ArrayList<>(List.of(options));
    args.add(in.toString());
    args.add(o.toString());
    int rc = ToolRunner.run(conf(), tool, args.toArray(new String[0]));
    if (rc != 0) {
      throw new IllegalStateException(tool.name() + " exited with " + rc);
    }
    return tool.lastJob().getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
  }

  private static long runJob(Job job) throws Exception {
    if (!job.waitForCompletion(false)) {
      throw new IllegalStateException(job.getJobName() + " failed: "
          + job.getStatus().getFailureInfo());
    }
    return job.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue();
  }

  private Configuration conf() {
    return cluster.clientConf();
  }

  private long totalBytes(org.apache.hadoop.fs.Path dir) throws IOException {
    long total = 0;
    for (FileStatus status : fs.listStatus(dir)) {
      total += status.getLen();
    }
    return total;
  }

  private void progress(String what, int done, int total) {
    if (done == total || done % Math.max(1, total / 5) == 0) {
      out.printf("writing %s: %d/%d%n", what, done, total);
    }
  }

  private static String slug(String variant) {
    return variant.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase(java.util.Locale.ROOT);
  }
}
