package org.fawnpack.jobs;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.input.FawnCombineTextInputFormat;
import org.fawnpack.input.FawnInputConfig;

/**
 * The optimised log count: small files combined into one split per vcore, (date, level) pairs
 * tallied in the mapper and emitted once per split, combiner = reducer. Same output as
 * {@link LogCount}.
 */
public class LogCount2 extends FileJobTool {

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new LogCount2(), args));
  }

  @Override
  public String name() {
    return "logcount2";
  }

  @Override
  public String description() {
    return "Counts log4j lines per date and level; files combined into one map per vcore.";
  }

  @Override
  protected Job createJob(List<Path> inputs, Path output) throws IOException {
    FawnInputConfig.validate(getConf());
    FrameworkTuning.apply(getConf());
    return newCountingJob(inputs, output, FawnCombineTextInputFormat.class, TallyMapper.class,
        true);
  }

  /** Tallies (date, level) codes for the whole split and writes them in cleanup. */
  public static class TallyMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private final CodeTally tally = new CodeTally();
    private long unparsed;

    @Override
    protected void map(LongWritable offset, Text line, Context context) {
      int code = LogLineParser.parse(line.getBytes(), line.getLength());
      if (code == LogLineParser.NOT_A_LOG_LINE) {
        unparsed++;
      } else {
        tally.add(code);
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      Counter counter = context.getCounter(FawnJobCounter.UNPARSED_LINES);
      counter.increment(unparsed);
      Text key = new Text();
      LongWritable count = new LongWritable();
      tally.forEach((code, n) -> {
        key.set(LogLineParser.keyOf(code));
        count.set(n);
        context.write(key, count);
      });
    }
  }
}
