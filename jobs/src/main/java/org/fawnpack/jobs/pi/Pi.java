package org.fawnpack.jobs.pi;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.jobs.FrameworkTuning;
import org.fawnpack.jobs.JobTool;

/**
 * {@code pi <maps> <samples-per-map>}: the quasi-Monte-Carlo estimate of pi, with the meaning of
 * Hadoop's QuasiMonteCarlo example (the same Halton points, map i taking the points from
 * {@code i × samples + 1}), as a map-only job whose maps report through counters. Where the
 * maps run (an uber job or one task per map vcore, on which nodes) is {@link PiPlacement}'s
 * rule; the result says where they ran.
 */
public class Pi extends JobTool {

  public Pi() {
  }

  /** Prints its results to {@code out} instead of standard output. */
  protected Pi(java.io.PrintStream out) {
    super(out);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Pi(), args));
  }

  @Override
  public String name() {
    return "pi";
  }

  @Override
  public String description() {
    return "Estimates pi by quasi-Monte-Carlo (Halton points), like the stock 'pi' example.";
  }

  @Override
  protected String synopsis() {
    return "<maps> <samples-per-map>";
  }

  @Override
  protected Job jobFromArguments(String[] args) throws IOException, UsageException {
    if (args.length != 2) {
      throw new UsageException("expected <maps> <samples-per-map>, got " + args.length
          + " argument(s)");
    }
    int maps = (int) positive(args[0], "maps", 100_000);
    long samples = positive(args[1], "samples-per-map", HaltonCircle.MAX_INDEX);
    if (samples > (HaltonCircle.MAX_INDEX - 1) / maps) {
      throw new UsageException("maps x samples-per-map must stay below " + HaltonCircle.MAX_INDEX
          + " (3^33 - 1)");
    }
    FrameworkTuning.apply(getConf());
    out().println(PiPlanner.apply(getConf(), maps, samples).describe(maps, samples));
    Job job = newJob(maps + " x " + samples);
    job.getConfiguration().setInt(PiInputFormat.MAPS, maps);
    job.getConfiguration().setLong(PiInputFormat.SAMPLES_PER_MAP, samples);
    job.setInputFormatClass(PiInputFormat.class);
    job.setMapperClass(PiMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(NullOutputFormat.class);
    return job;
  }

  private static long positive(String text, String what, long max) throws UsageException {
    try {
      long value = Long.parseLong(text);
      if (value < 1 || value > max) {
        throw new UsageException(what + " must be between 1 and " + max + ", was " + text);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new UsageException(what + " must be a whole number, was '" + text + "'");
    }
  }

  @Override
  protected void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    Counters counters = job.getCounters();
    if (!ok || counters == null) {
      super.printResult(job, ok);
      return;
    }
    long inside = counters.findCounter(PiCounter.INSIDE).getValue();
    long samples = counters.findCounter(PiCounter.SAMPLES).getValue();
    BigDecimal estimate = estimate(inside, samples);
    out().printf(Locale.ROOT, "pi succeeded in %.1f s: %d points, %d inside%n",
        lastWallMillis() / 1000.0, samples, inside);
    out().printf(Locale.ROOT, "Estimated value of Pi is %s (error %+.3e against Math.PI)%n",
        estimate.toPlainString(), estimate.doubleValue() - Math.PI);
    // Where the maps ran, before the energy line: the joules describe those nodes.
    out().println(PiRunReport.whereRan(job, counters, job.getConfiguration()));
    out().println(PiRunReport.startUp(counters));
    out().println("pi " + JobEnergySummary.of(counters, lastWallMillis())
        .describe("points", samples));
  }

  /** 4 × inside / samples, to 20 significant digits (BigDecimal only here, never in the loop). */
  public static BigDecimal estimate(long inside, long samples) {
    return BigDecimal.valueOf(4).multiply(BigDecimal.valueOf(inside))
        .divide(BigDecimal.valueOf(samples), new MathContext(20));
  }
}
