package org.fawnpack.benchmarks;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.CombineTextInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The stock Hadoop WordCount example, wired exactly as its {@code main} wires it (which we cannot
 * call: it ends in System.exit), optionally on stock CombineTextInputFormat.
 */
final class StockJobs {

  private StockJobs() {}

  /** Stock WordCount with its default input format: one map per file. */
  static Job wordCount(Configuration conf, Path in, Path out) throws IOException {
    Job job = Job.getInstance(conf, "stock wordcount");
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  /**
   * Stock WordCount on CombineTextInputFormat with the max split size set by hand to one split
   * per vcore: the strongest setup a user gets from stock Hadoop.
   */
  static Job wordCountCombined(Configuration conf, Path in, Path out, long maxSplitBytes)
      throws IOException {
    Job job = wordCount(conf, in, out);
    job.setJobName("stock wordcount + CombineTextInputFormat");
    job.setInputFormatClass(CombineTextInputFormat.class);
    CombineTextInputFormat.setMaxInputSplitSize(job, maxSplitBytes);
    return job;
  }
}
