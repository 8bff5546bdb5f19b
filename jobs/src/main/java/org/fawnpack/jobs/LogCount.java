package org.fawnpack.jobs;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.util.ToolRunner;

/**
 * Counts log lines per (date, level), e.g. {@code 2016-02-01 INFO	1234}: one map per file,
 * combiner on, as in the paper. Lines that are not log lines are counted in
 * {@link FawnJobCounter#UNPARSED_LINES}.
 */
public class LogCount extends FileJobTool {

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new LogCount(), args));
  }

  @Override
  public String name() {
    return "logcount";
  }

  @Override
  public String description() {
    return "Counts log4j lines per date and level; one map per file, combiner on.";
  }

  @Override
  protected Job createJob(List<Path> inputs, Path output) throws IOException {
    return newCountingJob(inputs, output, TextInputFormat.class, LineMapper.class, true);
  }

  /** Emits ("yyyy-MM-dd LEVEL", 1) per log line. */
  public static class LineMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private static final LongWritable ONE = new LongWritable(1);
    private final Text key = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      int code = LogLineParser.parse(line.getBytes(), line.getLength());
      if (code == LogLineParser.NOT_A_LOG_LINE) {
        context.getCounter(FawnJobCounter.UNPARSED_LINES).increment(1);
        return;
      }
      key.set(LogLineParser.keyOf(code));
      context.write(key, ONE);
    }
  }
}
