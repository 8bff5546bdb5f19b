package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.jobs.FrameworkTuning;
import org.fawnpack.jobs.JobTool;

/**
 * {@code teragen <rows> <out>}: writes rows 0 .. rows−1 of the sort benchmark's data, the same
 * bytes as the stock teragen, with one map per vcore (or -D mapreduce.job.maps=N), and prints the
 * data's checksum (sum of the records' CRC32s) for teravalidate.
 */
public class TeraGen extends JobTool {

  public TeraGen() {
  }

  protected TeraGen(PrintStream out) {
    super(out);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new TeraGen(), args));
  }

  @Override
  public String name() {
    return "teragen";
  }

  @Override
  public String description() {
    return "Generates sort-benchmark data: <rows> records of 100 bytes, as the stock teragen.";
  }

  @Override
  protected String synopsis() {
    return "<rows> <out>";
  }

  @Override
  protected Job jobFromArguments(String[] args) throws IOException, UsageException {
    if (args.length != 2) {
      throw new UsageException("expected <rows> <out>, got " + args.length + " argument(s)");
    }
    long rows = parseRows(args[0]);
    Path out = new Path(args[1]);
    requireNewOutput(out);
    FrameworkTuning.apply(getConf());
    int maps = TeraSortConfig.maps(getConf());
    Job job = newJob(rows + " rows");
    job.getConfiguration().setLong(RowRangeInputFormat.ROWS, rows);
    job.getConfiguration().setInt(RowRangeInputFormat.MAPS, maps);
    job.setInputFormatClass(RowRangeInputFormat.class);
    job.setMapperClass(TeraGenMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(SortKey.class);
    job.setOutputValueClass(SortValue.class);
    job.setOutputFormatClass(SortRecordOutputFormat.class);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  static long parseRows(String text) throws UsageException {
    try {
      long rows = Long.parseLong(text);
      // Row numbers fit in 63 bits; 2^40 rows (110 TB) is far beyond any wimpy cluster.
      if (rows < 1 || rows > (1L << 40)) {
        throw new UsageException("rows must be between 1 and " + (1L << 40) + ", was " + text);
      }
      return rows;
    } catch (NumberFormatException e) {
      throw new UsageException("rows must be a whole number, was '" + text + "'");
    }
  }

  @Override
  protected void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    Counters counters = job.getCounters();
    if (!ok || counters == null) {
      super.printResult(job, ok);
      return;
    }
    long rows = counters.findCounter(TeraCounter.ROWS_GENERATED).getValue();
    out().printf("teragen succeeded in %.1f s: %d rows (%d bytes) in %d files%n",
        lastWallMillis() / 1000.0, rows, rows * SortRecord.BYTES,
        job.getConfiguration().getInt(RowRangeInputFormat.MAPS, 0));
    out().println("teragen checksum " + checksum(counters));
    out().println("teragen " + JobEnergySummary.of(counters, lastWallMillis())
        .describe("rows written", rows));
  }

  /** The data's checksum from the job's counters (exact below 2^32 rows). */
  public static Checksum128 checksum(Counters counters) {
    return new Checksum128(0, counters.findCounter(TeraCounter.CHECKSUM).getValue());
  }
}
