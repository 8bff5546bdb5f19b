package org.fawnpack.minicluster;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.jobs.LogCount;
import org.fawnpack.jobs.LogCount2;
import org.fawnpack.jobs.WordCount;
import org.fawnpack.jobs.WordCount2;

/**
 * {@code ./fawn demo}: the whole pack on an embedded cluster in one JVM. Starts HDFS + YARN +
 * JobHistory with four small NodeManagers, writes many small text and log files, runs each
 * baseline job beside its optimised twin, checks the twins agree, and prints the table.
 */
public final class Demo {

  private final DemoOptions options;
  private final PrintStream out;

  Demo(DemoOptions options, PrintStream out) {
    this.options = options;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    if (java.util.Arrays.asList(args).contains("--help") || java.util.Arrays.asList(args).contains("-h")) {
      System.out.println(DemoOptions.USAGE);
      return;
    }
    DemoOptions options;
    try {
      options = DemoOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("demo: " + e.getMessage());
      System.err.println(DemoOptions.USAGE);
      System.exit(JobTool.EXIT_USAGE);
      return;
    }
    try {
      DemoProfile.slaveProfile(options.profile());
    } catch (IllegalArgumentException | org.fawnpack.configs.ConfigFileException e) {
      System.err.println("demo: --profile " + options.profile() + ": " + e.getMessage());
      System.exit(JobTool.EXIT_USAGE);
      return;
    }
    System.exit(new Demo(options, System.out).run());
  }

  int run() throws Exception {
    long started = System.nanoTime();
    EmbeddedClusterSpec spec = DemoProfile.apply(EmbeddedCluster.builder().name("demo")
        .baseDir(options.outDir().resolve("cluster")), options.profile(),
        options.outDir().resolve("profile-conf"), out).spec();
    EmbeddedCluster cluster = EmbeddedCluster.of(spec);
    out.printf("Starting the embedded cluster: HDFS, YARN (%d NodeManagers x %d vcores / %d MB,"
        + " profile %s; ApplicationMasters on a master NodeManager of %d MB), JobHistory ...%n",
        spec.nodeManagers(), spec.nodeVcores(), spec.nodeMemoryMb(), options.profile(),
        spec.masterMemoryMb());
    out.printf("Each NodeManager runs the fawn_energy collector with the Edison power model"
        + " (%s W idle, %s W busy): the joules are estimates.%n",
        EmbeddedClusterSpec.EDISON_MODEL_METER.get("fawn.energy.meter.edison-model.idle-watts"),
        EmbeddedClusterSpec.EDISON_MODEL_METER.get("fawn.energy.meter.edison-model.busy-watts"));
    cluster.start();
    try {
      List<JobResult> rows = runJobs(cluster);
      out.println();
      out.print(SummaryTable.text(rows));
      Path summary = options.outDir().resolve("summary.json");
      SummaryTable.writeJson(rows, summary);
      out.printf("%nSummary written to %s; demo took %.0f s.%n", summary.toAbsolutePath(),
          (System.nanoTime() - started) / 1e9);
      boolean allOk = rows.stream().allMatch(JobResult::succeeded);
      if (options.keep()) {
        keepRunning(cluster);
      }
      return allOk ? 0 : 1;
    } finally {
      out.println("Stopping the embedded cluster (about 20 s) ...");
      cluster.close();
    }
  }

  private List<JobResult> runJobs(EmbeddedCluster cluster) throws Exception {
    FileSystem fs = cluster.fileSystem();
    SampleInputs inputs = new SampleInputs(2016, 20_000);
    org.apache.hadoop.fs.Path text = new org.apache.hadoop.fs.Path("/demo/in/text");
    org.apache.hadoop.fs.Path logs = new org.apache.hadoop.fs.Path("/demo/in/logs");
    inputs.writeTextFiles(fs, text, options.textFiles(), options.textFileKb() * 1024,
        i -> progress("Writing text files", i + 1, options.textFiles()));
    inputs.writeLogFiles(fs, logs, options.logFiles(), options.logFileKb() * 1024,
        i -> progress("Writing log files", i + 1, options.logFiles()));

    List<JobResult> rows = new ArrayList<>();
    rows.add(runJob(cluster, new WordCount(), text, "/demo/out/wordcount"));
    rows.add(runJob(cluster, new WordCount2(), text, "/demo/out/wordcount2"));
    checkSame(fs, "/demo/out/wordcount", "/demo/out/wordcount2");
    rows.add(runJob(cluster, new LogCount(), logs, "/demo/out/logcount"));
    rows.add(runJob(cluster, new LogCount2(), logs, "/demo/out/logcount2"));
    checkSame(fs, "/demo/out/logcount", "/demo/out/logcount2");
    return rows;
  }

  private JobResult runJob(EmbeddedCluster cluster, JobTool tool, org.apache.hadoop.fs.Path in,
      String outDir) throws Exception {
    out.printf("%nRunning %s on %s ...%n", tool.name(), in);
    Configuration conf = cluster.clientConf();
    int rc = ToolRunner.run(conf, tool, new String[] {in.toString(), outDir});
    if (tool.lastJob() == null) {
      throw new IllegalStateException(tool.name() + " did not run (exit code " + rc + ")");
    }
    return JobResult.of(tool.name(), tool.lastJob(), tool.lastWallMillis());
  }

  /** The optimised twin must produce exactly the baseline's output. */
  private void checkSame(FileSystem fs, String baseline, String optimised) throws Exception {
    Map<String, Long> a = JobOutputs.read(fs, new org.apache.hadoop.fs.Path(baseline));
    Map<String, Long> b = JobOutputs.read(fs, new org.apache.hadoop.fs.Path(optimised));
    if (!a.equals(b)) {
      throw new IllegalStateException(optimised + " differs from " + baseline + ": "
          + a.size() + " vs " + b.size() + " keys");
    }
    out.printf("Outputs of %s and %s agree (%d keys).%n", baseline, optimised, a.size());
  }

  private void progress(String what, int done, int total) {
    if (done == total || done % Math.max(1, total / 10) == 0) {
      out.printf("%s: %d/%d%n", what, done, total);
    }
  }

  private void keepRunning(EmbeddedCluster cluster) throws InterruptedException {
    out.println("\nThe cluster stays up (--keep). Web addresses (REST for the ResourceManager and"
        + " JobHistory: their HTML pages do not render in a one-JVM cluster):");
    cluster.webAddresses().forEach((name, url) -> out.printf("  %-15s %s%n", name, url));
    out.printf("  client config   %s%n", cluster.clientConfDir());
    out.println("Press Ctrl-C to stop it.");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      cluster.close();
      stopped.countDown();
    }));
    stopped.await();
  }
}
