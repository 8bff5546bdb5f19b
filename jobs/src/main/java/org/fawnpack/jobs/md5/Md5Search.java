package org.fawnpack.jobs.md5;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.input.CorruptInputException;
import org.fawnpack.jobs.FileJobTool;
import org.fawnpack.jobs.FrameworkTuning;

/**
 * {@code md5search --target HEX [--bits B] [--maps N] [--no-combiner] <in>... <out>}: the MD5
 * benchmark of the thesis (Map: value → (value[0], value ‖ MD5(value)); Reduce: keep the pairs
 * whose hash is the target) over md5gen's records. Prints the preimages found (or none), the
 * number of MD5s computed and the transformations per joule.
 */
public class Md5Search extends FileJobTool {
  private Md5Options options;

  public Md5Search() {
  }

  /** Prints its results to {@code out} instead of standard output. */
  protected Md5Search(PrintStream out) {
    super(out);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Md5Search(), args));
  }

  @Override
  public String name() {
    return "md5search";
  }

  @Override
  public String description() {
    return "Finds the values of md5gen's output whose MD5 is the target (the thesis's MD5"
        + " benchmark); prints them and transformations per joule.";
  }

  @Override
  protected String synopsis() {
    return "--target <32 hex digits> [--bits B] [--maps N (default: one per vcore)]"
        + " [--no-combiner] <in> [<in>...] <out>";
  }

  @Override
  protected String[] parseOptions(String[] args) throws UsageException {
    try {
      options = Md5Options.parse(args, true);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return options.paths().toArray(new String[0]);
  }

  @Override
  protected Job createJob(List<Path> inputs, Path output) throws IOException, UsageException {
    // Checked after the paths, so every file job reports missing paths the same way.
    if (options.target() == null && getConf().get(Md5Config.TARGET.name()) == null) {
      throw new UsageException("missing --target <32 hex digits>");
    }
    options.applyTo(getConf());
    Md5Config.target(getConf());
    Md5Config.explicitMaps(getConf());
    FrameworkTuning.apply(getConf());
    Job job = newJob(inputs, output);
    checkRecords(job);
    job.setJobName(name() + " " + getConf().get(Md5Config.TARGET.name()));
    job.setInputFormatClass(ValueRecordInputFormat.class);
    job.setMapperClass(Md5SearchMapper.class);
    job.setMapOutputKeyClass(ByteWritable.class);
    job.setMapOutputValueClass(ValueDigestWritable.class);
    if (Md5Config.COMBINE.read(job.getConfiguration()::get)) {
      job.setCombinerClass(Md5MatchCombiner.class);
    }
    job.setReducerClass(Md5MatchReducer.class);
    if (Md5Config.FULL_JIT.read(job.getConfiguration()::get)) {
      // The last of two -XX:TieredStopAtLevel flags wins; without -Xmx Hadoop still sizes the
      // heap from mapreduce.map.memory.mb.
      String opts = job.getConfiguration().get(MRJobConfig.MAP_JAVA_OPTS, "");
      job.getConfiguration().set(MRJobConfig.MAP_JAVA_OPTS,
          (opts + " -XX:TieredStopAtLevel=4").trim(), "md5search " + Md5Config.FULL_JIT.name());
    }
    job.setOutputKeyClass(LongWritable.class);
    job.setOutputValueClass(Text.class);
    return job;
  }

  /** Whole records in every file, and 2^bits of them when --bits was given. */
  private void checkRecords(Job job) throws IOException, UsageException {
    long records;
    try {
      records = ValueRecordInputFormat.countRecords(job);
    } catch (CorruptInputException e) {
      throw new UsageException(e.getMessage());
    }
    if (records == 0) {
      throw new UsageException("the input holds no records (md5gen writes them)");
    }
    Integer bits = options.bits();
    if (bits != null && records != 1L << bits) {
      throw new UsageException("the input holds " + records + " records, --bits " + bits
          + " expects " + (1L << bits) + " (all values of " + bits + " bits, as md5gen writes)");
    }
  }

  @Override
  protected void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    Counters counters = job.getCounters();
    if (!ok || counters == null) {
      super.printResult(job, ok);
      return;
    }
    long hashes = counters.findCounter(Md5Counter.TRANSFORMATIONS).getValue();
    String target = job.getConfiguration().get(Md5Config.TARGET.name());
    out().printf(Locale.ROOT, "md5search succeeded in %.1f s: %,d MD5s computed (%,.0f per s)%n",
        lastWallMillis() / 1000.0, hashes, hashes / (lastWallMillis() / 1000.0));
    List<String> found = preimages(job);
    if (found.isEmpty()) {
      out().println("md5search: none of the values hashes to " + target);
    }
    for (String line : found) {
      out().println("md5search: preimage " + line.replace('\t', ' '));
    }
    out().println("md5search " + JobEnergySummary.of(counters, lastWallMillis())
        .describe("transformations", hashes));
  }

  /** The lines of the job's output files, sorted by value: the preimages found. */
  public static List<String> preimages(Job job) throws IOException {
    Path dir = FileOutputFormat.getOutputPath(job);
    FileSystem fs = dir.getFileSystem(job.getConfiguration());
    FileStatus[] parts = fs.globStatus(new Path(dir, "part-*"));
    Arrays.sort(parts);
    List<String> lines = new ArrayList<>();
    for (FileStatus part : parts) {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(fs.open(part.getPath()),
          StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          lines.add(line);
        }
      }
    }
    lines.sort((a, b) -> Long.compare(Long.parseLong(a.substring(0, a.indexOf('\t'))),
        Long.parseLong(b.substring(0, b.indexOf('\t')))));
    return lines;
  }
}
