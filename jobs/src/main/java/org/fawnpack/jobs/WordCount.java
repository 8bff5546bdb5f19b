package org.fawnpack.jobs;

import java.io.IOException;
import java.util.List;
import java.util.StringTokenizer;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.util.ToolRunner;

/**
 * The paper's baseline word count: one split (one map container) per file, a (word, 1) pair
 * per token, no combiner; one reducer per vcore, as the paper ran it. Words are split as Hadoop's example splits them (StringTokenizer).
 */
public class WordCount extends FileJobTool {

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new WordCount(), args));
  }

  @Override
  public String name() {
    return "wordcount";
  }

  @Override
  public String description() {
    return "Counts words; one map per file, no combiner (the baseline).";
  }

  @Override
  protected Job createJob(List<Path> inputs, Path output) throws IOException {
    Job job = newJob(inputs, output);
    job.setInputFormatClass(TextInputFormat.class);
    job.setMapperClass(TokenMapper.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    setCountReducers(job);
    return job;
  }

  /** Emits (word, 1) for every whitespace-separated token. */
  public static class TokenMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text word = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      StringTokenizer tokens = new StringTokenizer(line.toString());
      while (tokens.hasMoreTokens()) {
        word.set(tokens.nextToken());
        context.write(word, ONE);
      }
    }
  }
}
