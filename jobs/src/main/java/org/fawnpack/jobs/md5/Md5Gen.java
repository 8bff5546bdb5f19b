package org.fawnpack.jobs.md5;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.jobs.FrameworkTuning;
import org.fawnpack.jobs.JobTool;

/**
 * {@code md5gen [--bits B] [--maps N] <out>}: writes every value 0 .. 2^B - 1 as 4-byte
 * big-endian records (the MD5 benchmark's input), one contiguous, even range per map, so
 * {@code part-m-00000} holds the lowest values. Map-only; nothing is read.
 */
public class Md5Gen extends JobTool {

  public Md5Gen() {
  }

  /** Prints its results to {@code out} instead of standard output. */
  protected Md5Gen(PrintStream out) {
    super(out);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Md5Gen(), args));
  }

  @Override
  public String name() {
    return "md5gen";
  }

  @Override
  public String description() {
    return "Writes all 2^bits values as 4-byte big-endian records: the input of md5search"
        + " (default " + Md5Config.BITS.defaultValue() + " bits).";
  }

  @Override
  protected String synopsis() {
    return "[--bits B (1-32, default " + Md5Config.BITS.defaultValue() + ")]"
        + " [--maps N (default: one per vcore)] <out>";
  }

  @Override
  protected Job jobFromArguments(String[] args) throws IOException, UsageException {
    Md5Options options;
    try {
      options = Md5Options.parse(args, false);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (options.paths().size() != 1) {
      throw new UsageException("expected one output path, got " + options.paths().size()
          + " path(s)");
    }
    options.applyTo(getConf());
    Md5Config.bits(getConf()); // a bad -D value fails here, before submission
    Md5Config.explicitMaps(getConf());
    Path output = new Path(options.paths().get(0));
    requireNewOutput(output);
    FrameworkTuning.apply(getConf());
    Job job = newJob(Md5Config.bits(getConf()) + " bits");
    job.setInputFormatClass(ValueRangeInputFormat.class);
    job.setMapperClass(ValueGenMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(NullWritable.class);
    job.setOutputFormatClass(ValueRecordOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  @Override
  protected void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    Counters counters = job.getCounters();
    if (!ok || counters == null) {
      super.printResult(job, ok);
      return;
    }
    long values = counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue();
    out().printf(Locale.ROOT, "md5gen succeeded in %.1f s: %,d values (%d bits) as %,d bytes in %d"
        + " files under %s%n", lastWallMillis() / 1000.0, values,
        Md5Config.bits(job.getConfiguration()),
        values * ValueRecords.RECORD_BYTES,
        partFiles(job), FileOutputFormat.getOutputPath(job));
    out().println("md5gen " + JobEnergySummary.of(counters, lastWallMillis())
        .describe("values written", values));
  }

  private static int partFiles(Job job) throws IOException {
    Path dir = FileOutputFormat.getOutputPath(job);
    return dir.getFileSystem(job.getConfiguration()).globStatus(new Path(dir, "part-*")).length;
  }
}
