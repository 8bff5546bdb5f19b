package org.fawnpack.jobs.tera;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.FileJobTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code terasort <in> [<in>...] <out>}: sorts sort-benchmark records by key into one sorted
 * sequence over the reducers' part files. Before submitting it samples keys from the input
 * ({@code fawn.jobs.terasort.sample.size} keys from
 * {@code fawn.jobs.terasort.sample.splits} splits) and cuts them into equal ranges, one per reducer. Maps: one per vcore (fewer, bigger maps
 * than one per block). Reducers: the cluster's vcores unless -D mapreduce.job.reduces=N.
 */
public class TeraSort extends FileJobTool {
  private static final Logger LOG = LoggerFactory.getLogger(TeraSort.class);

  public TeraSort() {
  }

  protected TeraSort(PrintStream out) {
    super(out);
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new TeraSort(), args));
  }

  @Override
  public String name() {
    return "terasort";
  }

  @Override
  public String description() {
    return "Sorts sort-benchmark records (as teragen writes) by key, total order over the"
        + " reducers.";
  }

  @Override
  protected Job createJob(List<Path> inputs, Path output) throws IOException {
    Configuration conf = getConf();
    int sampleSize = TeraSortConfig.sampleSize(conf);
    int sampleSplits = TeraSortConfig.sampleSplits(conf);
    int replication = TeraSortConfig.outputReplication(conf);
    int reduces = TeraSortConfig.reduces(conf);
    int maps = TeraSortConfig.maps(conf);
    TeraSortConfig.applyJobDefaults(conf);

    Job job = newJob(inputs, output);
    job.setJobName(name());
    Configuration jobConf = job.getConfiguration();
    jobConf.setInt(SortRecordInputFormat.SPLITS, maps);
    jobConf.setInt(SortRecordOutputFormat.REPLICATION, replication);
    job.setInputFormatClass(SortRecordInputFormat.class);

    long start = System.nanoTime();
    List<InputSplit> splits = new SortRecordInputFormat().getSplits(job);
    long largestSplit = 0;
    for (InputSplit split : splits) {
      largestSplit = Math.max(largestSplit, split instanceof CombineFileSplit pieces
          ? pieces.getLength() : ((FileSplit) split).getLength());
    }
    SortBufferSizer.size(jobConf, largestSplit / SortRecord.BYTES);
    List<byte[]> sample = new KeySampler(jobConf, sampleSize, sampleSplits).sample(splits);
    KeyRangePartitioner.setCutPoints(jobConf, KeySampler.cutPoints(sample, reduces));
    LOG.info("Sampled {} keys from {} of {} splits in {} ms: {} reducers", sample.size(),
        Math.min(sampleSplits, splits.size()), splits.size(),
        (System.nanoTime() - start) / 1_000_000, reduces);

    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setNumReduceTasks(reduces);
    job.setPartitionerClass(KeyRangePartitioner.class);
    job.setSortComparatorClass(SortKey.Comparator.class);
    job.setMapOutputKeyClass(SortKey.class);
    job.setMapOutputValueClass(SortValue.class);
    job.setOutputKeyClass(SortKey.class);
    job.setOutputValueClass(SortValue.class);
    job.setOutputFormatClass(SortRecordOutputFormat.class);
    return job;
  }
}
