package org.fawnpack.jobs;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.apache.hadoop.util.Tool;
import org.fawnpack.energy.EnergyMetering;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.input.InvalidConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shape every job of the pack shares: parse the arguments, validate them, build and run the
 * job, print a one-line result. Generic options ({@code -D}, {@code -files}, {@code -libjars})
 * are handled by ToolRunner before {@link #run} sees the arguments.
 *
 * <p>Exit codes: 0 success, 1 the job failed, 2 bad arguments (usage printed).
 */
public abstract class JobTool extends Configured implements Tool {

  /** Exit code for bad arguments, as for most command-line tools. */
  public static final int EXIT_USAGE = 2;

  private static final Logger LOG = LoggerFactory.getLogger(JobTool.class);

  private final PrintStream out;
  private Job lastJob;
  private long lastWallMillis;

  protected JobTool() {
    this(System.out);
  }

  protected JobTool(PrintStream out) {
    this.out = out;
  }

  /** The name the driver lists this job under. */
  public abstract String name();

  /** One line: what the job does. */
  public abstract String description();

  /** The argument synopsis after the job name, e.g. {@code <in> [<in>...] <out>}. */
  protected String synopsis() {
    return "<in> [<in>...] <out>";
  }

  /**
   * Builds the job for the given input paths and output path.
   *
   * @throws InvalidConfigException for a bad setting: printed with the usage, exit code 2
   */
  protected abstract Job createJob(List<Path> inputs, Path output) throws IOException;

  @Override
  public final int run(String[] args) throws Exception {
    if (args.length < 2) {
      return usage(args.length == 0 ? "missing input and output paths" : "missing output path");
    }
    List<Path> inputs = Arrays.stream(args, 0, args.length - 1).map(Path::new).toList();
    Path output = new Path(args[args.length - 1]);
    String problem = checkPaths(inputs, output);
    if (problem != null) {
      return usage(problem);
    }
    Job job;
    try {
      job = createJob(inputs, output);
    } catch (InvalidConfigException e) {
      return usage(e.getMessage());
    }
    // Every job of the pack is metered unless -Dfawn.energy.metering=false; wrapping happens
    // last so it sees the job's final output format.
    EnergyMetering.enableUnlessDisabled(job, true);
    long start = System.nanoTime();
    boolean ok = new JobMonitor(job, out, name()).waitForCompletion();
    lastWallMillis = (System.nanoTime() - start) / 1_000_000;
    lastJob = job;
    printResult(job, ok);
    return ok ? 0 : 1;
  }

  /** Null when the paths are usable, else what is wrong with them. */
  private String checkPaths(List<Path> inputs, Path output) throws IOException {
    for (Path input : inputs) {
      FileSystem fs = input.getFileSystem(getConf());
      FileStatus[] matches = fs.globStatus(input);
      if (matches == null || matches.length == 0) {
        return "input path does not exist: " + fs.makeQualified(input);
      }
    }
    FileSystem outFs = output.getFileSystem(getConf());
    if (outFs.exists(output)) {
      return "output directory already exists: " + outFs.makeQualified(output)
          + " (remove it or choose another; jobs never overwrite output)";
    }
    return null;
  }

  private int usage(String problem) {
    PrintStream err = System.err;
    err.println(name() + ": " + problem);
    err.println("Usage: hadoop jar fawn-jobs.jar " + name() + " [generic options] " + synopsis());
    err.println("  " + description());
    err.println("Generic options include -D key=value, -files, -libjars (see hadoop jar -help).");
    return EXIT_USAGE;
  }

  /** Creates a job with this tool's configuration, jar and name. */
  protected final Job newJob(List<Path> inputs, Path output) throws IOException {
    Job job = Job.getInstance(getConf(), name());
    job.setJarByClass(getClass());
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, input);
    }
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /**
   * A job that sums LongWritable counts per Text key (LongSumReducer), with the given input
   * format and mapper, and the reducer as combiner when {@code combine} is set.
   */
  @SuppressWarnings("rawtypes")
  protected final Job newCountingJob(List<Path> inputs, Path output,
      Class<? extends InputFormat> inputFormat, Class<? extends Mapper> mapper, boolean combine)
      throws IOException {
    Job job = newJob(inputs, output);
    job.setInputFormatClass(inputFormat);
    job.setMapperClass(mapper);
    if (combine) {
      job.setCombinerClass(LongSumReducer.class);
    }
    job.setReducerClass(LongSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    return job;
  }

  private void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    var counters = job.getCounters();
    if (counters == null) {
      out.printf("%s %s in %.1f s (no counters)%n", name(), ok ? "succeeded" : "FAILED",
          lastWallMillis / 1000.0);
      return;
    }
    out.printf("%s %s in %.1f s: %d map containers, %d input records, %d output records%n",
        name(), ok ? "succeeded" : "FAILED", lastWallMillis / 1000.0,
        counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
        counters.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue());
    if (EnergyMetering.isEnabled(job.getConfiguration())) {
      out.println(name() + " " + JobEnergySummary.of(counters, lastWallMillis).describe());
    }
    if (!ok) {
      LOG.error("Job {} failed: {}", job.getJobID(), job.getStatus().getFailureInfo());
    }
  }

  /** The job of the last {@link #run}, or null before one completed. */
  public Job lastJob() {
    return lastJob;
  }

  /** Wall time of the last {@link #run}'s job, submission to completion, in milliseconds. */
  public long lastWallMillis() {
    return lastWallMillis;
  }
}
