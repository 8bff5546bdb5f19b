package org.fawnpack.jobs;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;
import org.fawnpack.input.ClusterVcores;

/**
 * A job that reads input paths and writes an output directory: {@code <in> [<in>...] <out>}.
 * Missing inputs and an existing output are refused (exit 2) before anything is submitted.
 */
public abstract class FileJobTool extends JobTool {

  protected FileJobTool() {
  }

  protected FileJobTool(PrintStream out) {
    super(out);
  }

  @Override
  protected String synopsis() {
    return "<in> [<in>...] <out>";
  }

  /**
   * Builds the job for the given input paths and output path.
   *
   * @throws org.fawnpack.conf.InvalidConfigValueException for a bad setting: usage, exit code 2
   * @throws UsageException for input the job cannot use: usage, exit code 2
   */
  protected abstract Job createJob(List<Path> inputs, Path output)
      throws IOException, UsageException;

  /**
   * Takes the tool's own options off the front of the arguments and returns the rest (the
   * paths). The default has no options.
   *
   * @throws UsageException for a bad or unknown option
   */
  protected String[] parseOptions(String[] args) throws UsageException {
    return args;
  }

  @Override
  protected final Job jobFromArguments(String[] allArgs) throws IOException, UsageException {
    String[] args = parseOptions(allArgs);
    if (args.length < 2) {
      throw new UsageException(args.length == 0 ? "missing input and output paths"
          : "missing output path");
    }
    List<Path> inputs = Arrays.stream(args, 0, args.length - 1).map(Path::new).toList();
    Path output = new Path(args[args.length - 1]);
    requireInputs(inputs);
    requireNewOutput(output);
    return createJob(inputs, output);
  }

  private void requireInputs(List<Path> inputs) throws IOException, UsageException {
    for (Path input : inputs) {
      FileSystem fs = input.getFileSystem(getConf());
      FileStatus[] matches = fs.globStatus(input);
      if (matches == null || matches.length == 0) {
        throw new UsageException("input path does not exist: " + fs.makeQualified(input));
      }
    }
  }

  /** Creates a job with this tool's configuration, jar and name, reading and writing these. */
  protected final Job newJob(List<Path> inputs, Path output) throws IOException {
    Job job = newJob("");
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
    setCountReducers(job);
    return job;
  }

  /**
   * Sets a count job's reducers ({@link #countReducers}). When they are one per vcore, by
   * default, they would fill every container the slaves have, and with Hadoop's slow start
   * (reducers launched once 5 % of the maps are done) hold them all while maps still wait: the
   * ApplicationMaster gives a starved map a reducer's container only after
   * {@code mapreduce.job.reducer.unconditional-preempt.delay.sec} (5 minutes). Measured: the
   * demo's wordcount stood at 44 % of its maps for 4 minutes, all eight Edison containers held
   * by reducers. So the reducers start once every map is done, unless the user chose either.
   */
  protected static void setCountReducers(Job job) throws IOException {
    Configuration conf = job.getConfiguration();
    boolean perVcore = !FrameworkTuning.isUserSet(conf, MRJobConfig.NUM_REDUCES);
    job.setNumReduceTasks(countReducers(conf));
    if (perVcore
        && !FrameworkTuning.isUserSet(conf, MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART)) {
      conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
    }
  }

  /**
   * A count job's reducers: {@code -D mapreduce.job.reduces} when given, else one per vcore the
   * cluster offers tasks, as seed 003 ran them (70 reducers on 35 two-core Edisons, §5.2.1): a
   * single reducer serialises the reduce phase on one wimpy core. Zero, when asked for, makes a
   * map-only job: each map's own counts are the output, not summed across maps.
   *
   * @throws org.fawnpack.conf.InvalidConfigValueException naming the key for a value that is not
   *     a whole number of at least 0
   */
  protected static int countReducers(Configuration conf) throws IOException {
    if (FrameworkTuning.isUserSet(conf, MRJobConfig.NUM_REDUCES)) {
      String value = conf.getTrimmed(MRJobConfig.NUM_REDUCES);
      int reducers;
      try {
        reducers = Integer.parseInt(value);
      } catch (NumberFormatException e) {
        reducers = -1;
      }
      if (reducers < 0) {
        throw new org.fawnpack.conf.InvalidConfigValueException(MRJobConfig.NUM_REDUCES, value,
            "a whole number of reducers: at least 1 to sum the counts, 0 for map-only");
      }
      return reducers;
    }
    return ClusterVcores.forJob(conf);
  }

}
