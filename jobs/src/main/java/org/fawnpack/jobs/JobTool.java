package org.fawnpack.jobs;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.Tool;
import org.fawnpack.conf.InvalidConfigValueException;
import org.fawnpack.energy.EnergyMetering;
import org.fawnpack.energy.JobEnergySummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shape every job of the pack shares: parse the arguments, validate them, build and run the
 * job (metered), print a one-line result. {@link FileJobTool} is the variant for jobs that read
 * input paths and write an output directory. Generic options ({@code -D}, {@code -files}, {@code -libjars})
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
  protected abstract String synopsis();

  /**
   * Builds the job from the command-line arguments (generic options already removed).
   *
   * @throws UsageException for bad arguments: printed with the usage, exit code 2
   * @throws InvalidConfigValueException for a bad setting: printed with the usage, exit code 2
   */
  protected abstract Job jobFromArguments(String[] args) throws IOException, UsageException;

  @Override
  public final int run(String[] args) throws Exception {
    Job job;
    try {
      job = jobFromArguments(args);
    } catch (UsageException | InvalidConfigValueException e) {
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
    return exitCode(job, ok);
  }

  /**
   * The exit code after the job ran and its result was printed: 0 when it succeeded, 1 when it
   * failed. A tool that judges its job's output (teravalidate) returns its own codes.
   */
  protected int exitCode(Job job, boolean ok) throws IOException, InterruptedException {
    return ok ? 0 : 1;
  }

  /** Bad command-line arguments; the message says what is wrong. */
  protected static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
      super(message);
    }
  }

  /**
   * A job with this tool's configuration, its jar, and its name followed by {@code detail}
   * (what the web UIs list it as).
   */
  protected final Job newJob(String detail) throws IOException {
    Job job = Job.getInstance(getConf(), detail.isEmpty() ? name() : name() + " " + detail);
    job.setJarByClass(getClass());
    return job;
  }

  /** Refuses an output directory that already exists: jobs never overwrite output. */
  protected final void requireNewOutput(Path output) throws IOException, UsageException {
    FileSystem fs = output.getFileSystem(getConf());
    if (fs.exists(output)) {
      throw new UsageException("output directory already exists: " + fs.makeQualified(output)
          + " (remove it or choose another; jobs never overwrite output)");
    }
  }

  /** Where the result lines go. */
  protected final PrintStream out() {
    return out;
  }

  private int usage(String problem) {
    PrintStream err = System.err;
    err.println(name() + ": " + problem);
    err.println("Usage: hadoop jar fawn-jobs.jar " + name() + " [generic options] " + synopsis());
    err.println("  " + description());
    err.println("Generic options include -D key=value, -files, -libjars (see hadoop jar -help).");
    return EXIT_USAGE;
  }

  /** Prints the job's one-line result and its energy; tools add their own figures. */
  protected void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    var counters = job.getCounters();
    if (counters == null) {
      out.printf("%s %s in %.1f s (no counters)%n", name(), ok ? "succeeded" : "FAILED",
          lastWallMillis / 1000.0);
      if (!ok) {
        out.println(name() + " " + JobEnergySummary.failedBeforeAnyTask());
        LOG.error("Job {} failed: {}", job.getJobID(), job.getStatus().getFailureInfo());
      }
      return;
    }
    out.printf("%s %s in %.1f s: %d map containers, %d input records, %d output records%n",
        name(), ok ? "succeeded" : "FAILED", lastWallMillis / 1000.0,
        counters.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
        counters.findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue(),
        counters.findCounter(TaskCounter.REDUCE_OUTPUT_RECORDS).getValue());
    if (EnergyMetering.isEnabled(job.getConfiguration())) {
      JobEnergySummary energy = JobEnergySummary.of(counters, lastWallMillis);
      boolean noTaskFinished = energy.tasksMetered() + energy.tasksUnmetered() == 0;
      out.println(name() + " " + (!ok && noTaskFinished ? JobEnergySummary.failedBeforeAnyTask()
          : energy.describe()));
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
