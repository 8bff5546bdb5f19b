package org.fawnpack.jobs;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.conf.ConfigKey;
import org.fawnpack.input.FawnCombineTextInputFormat;
import org.fawnpack.input.FawnInputConfig;

/**
 * The optimised word count: many small files packed into one split per vcore
 * ({@link FawnCombineTextInputFormat}), words counted in the mapper and emitted once per split,
 * combiner = reducer. Output is the same as {@link WordCount}'s.
 */
public class WordCount2 extends FileJobTool {

  public static final ConfigKey<Long> TALLY_BYTES = ConfigKey.bytesKey(
      "fawn.jobs.wordcount.tally-bytes", 16L << 20, 1, 1L << 40, "Heap the wordcount2 in-mapper"
      + " tally may hold before it is written to the map output and cleared. Keep it well below"
      + " the map heap (`mapreduce.map.java.opts`) minus `mapreduce.task.io.sort.mb`.");

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new WordCount2(), args));
  }

  @Override
  public String name() {
    return "wordcount2";
  }

  @Override
  public String description() {
    return "Counts words; small files combined into one map per vcore, in-mapper combining.";
  }

  @Override
  protected Job createJob(List<Path> inputs, Path output) throws IOException {
    FawnInputConfig.validate(getConf());
    tallyBudgetBytes(getConf());
    FrameworkTuning.apply(getConf());
    return newCountingJob(inputs, output, FawnCombineTextInputFormat.class, TallyMapper.class,
        true);
  }

  /** The tally budget, validated: {@link #TALLY_BYTES} as bytes, at least 1. */
  static long tallyBudgetBytes(Configuration conf) {
    return TALLY_BYTES.read(conf::get);
  }

  /**
   * Splits lines on the same whitespace as StringTokenizer (space, tab, newline, carriage
   * return, form feed; all ASCII, so splitting the UTF-8 bytes is exact) and tallies the words.
   */
  public static class TallyMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private final WordTally tally = new WordTally();
    private final Text word = new Text();
    private final LongWritable count = new LongWritable();
    private long budgetBytes;

    @Override
    protected void setup(Context context) {
      budgetBytes = tallyBudgetBytes(context.getConfiguration());
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      byte[] bytes = line.getBytes();
      int end = line.getLength();
      int i = 0;
      while (i < end) {
        while (i < end && isDelimiter(bytes[i])) {
          i++;
        }
        int start = i;
        while (i < end && !isDelimiter(bytes[i])) {
          i++;
        }
        if (i > start) {
          tally.add(bytes, start, i - start);
        }
      }
      if (tally.memoryBytes() > budgetBytes) {
        flush(context);
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      flush(context);
    }

    private void flush(Context context) throws IOException, InterruptedException {
      tally.forEach((bytes, start, length, n) -> {
        word.set(bytes, start, length);
        count.set(n);
        context.write(word, count);
      });
      tally.clear();
    }

    static boolean isDelimiter(byte b) {
      return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f';
    }
  }
}
