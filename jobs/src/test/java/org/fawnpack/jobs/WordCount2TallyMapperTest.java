package org.fawnpack.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.map.WrappedMapper;
import org.apache.hadoop.mapreduce.task.MapContextImpl;
import org.junit.jupiter.api.Test;

class WordCount2TallyMapperTest {

  @Test
  void isDelimiter_everyByteValue_sameAsStringTokenizerDefaults() {
    for (int b = 0; b < 256; b++) {
      char c = (char) b;
      // StringTokenizer splits "x<c>y" in two exactly when c is one of its default delimiters.
      boolean tokenizerSplits = new StringTokenizer("x" + c + "y").countTokens() == 2;
      assertEquals(tokenizerSplits, WordCount2.TallyMapper.isDelimiter((byte) b),
          "byte 0x" + Integer.toHexString(b));
    }
  }

  /** Lines with every kind of whitespace, including kinds StringTokenizer does not split on. */
  private static List<String> randomLines(Random random, int count) {
    String[] pieces = {"the", "fawn", "Straße", "日本", "😀", "a", "", "x1", " ", "  ", "\t", "\f",
      "\r", "\u000b", "\u00a0", "\u2003", "\u0085", "-", "é"};
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StringBuilder line = new StringBuilder();
      int n = random.nextInt(20);
      for (int p = 0; p < n; p++) {
        line.append(pieces[random.nextInt(pieces.length)]);
      }
      lines.add(line.toString());
    }
    return lines;
  }

  /** WordCount's tokenisation, the output wordcount2 must match. */
  private static Map<String, Long> oracle(List<String> lines) {
    Map<String, Long> counts = new HashMap<>();
    for (String line : lines) {
      StringTokenizer tokens = new StringTokenizer(line);
      while (tokens.hasMoreTokens()) {
        counts.merge(tokens.nextToken(), 1L, Long::sum);
      }
    }
    return counts;
  }

  /** Every (word, count) the mapper wrote, in order. */
  private static List<Map.Entry<String, Long>> runMapper(List<String> lines, Configuration conf)
      throws Exception {
    List<Map.Entry<String, Long>> written = new ArrayList<>();
    RecordWriter<Text, LongWritable> writer = new RecordWriter<>() {
      @Override
      public void write(Text key, LongWritable value) {
        written.add(Map.entry(key.toString(), value.get()));
      }

      @Override
      public void close(TaskAttemptContext context) {}
    };
    RecordReader<LongWritable, Text> reader = new RecordReader<>() {
      private final Iterator<String> it = lines.iterator();
      private final LongWritable key = new LongWritable();
      private final Text value = new Text();

      @Override
      public void initialize(InputSplit split, TaskAttemptContext context) {}

      @Override
      public boolean nextKeyValue() {
        if (!it.hasNext()) {
          return false;
        }
        key.set(key.get() + 1);
        value.set(it.next());
        return true;
      }

      @Override
      public LongWritable getCurrentKey() {
        return key;
      }

      @Override
      public Text getCurrentValue() {
        return value;
      }

      @Override
      public float getProgress() {
        return 0;
      }

      @Override
      public void close() {}
    };
    Counters counters = new Counters();
    StatusReporter reporter = new StatusReporter() {
      @Override
      public Counter getCounter(Enum<?> name) {
        return counters.findCounter(name);
      }

      @Override
      public Counter getCounter(String group, String name) {
        return counters.findCounter(group, name);
      }

      @Override
      public void progress() {}

      @Override
      public float getProgress() {
        return 0;
      }

      @Override
      public void setStatus(String status) {}
    };
    TaskAttemptID attempt = new TaskAttemptID("wc2-test", 1, TaskType.MAP, 0, 0);
    Mapper<LongWritable, Text, Text, LongWritable>.Context context =
        new WrappedMapper<LongWritable, Text, Text, LongWritable>().getMapContext(
            new MapContextImpl<>(conf, attempt, reader, writer, null, reporter, null));
    new WordCount2.TallyMapper().run(context);
    return written;
  }

  private static Map<String, Long> summed(List<Map.Entry<String, Long>> written) {
    Map<String, Long> sums = new HashMap<>();
    written.forEach(e -> sums.merge(e.getKey(), e.getValue(), Long::sum));
    return sums;
  }

  @Test
  void run_randomLinesDefaultBudget_countsMatchStringTokenizerAndEachWordWrittenOnce()
      throws Exception {
    List<String> lines = randomLines(new Random(21), 5000);
    Map<String, Long> expected = oracle(lines);

    List<Map.Entry<String, Long>> written = runMapper(lines, new Configuration(false));

    assertEquals(expected, summed(written));
    assertEquals(expected.size(), written.size(), "one output record per distinct word");
  }

  @Test
  void run_tinyTallyBudget_flushesOftenAndStillSumsRight() throws Exception {
    List<String> lines = randomLines(new Random(22), 3000);
    Map<String, Long> expected = oracle(lines);
    Configuration conf = new Configuration(false);
    conf.set(WordCount2.TALLY_BYTES.name(), "1k"); // below an empty tally's size: flush every line

    List<Map.Entry<String, Long>> written = runMapper(lines, conf);

    assertEquals(expected, summed(written));
    assertTrue(written.size() > expected.size(), "expected repeated flushes");
  }

  @Test
  void run_nonPositiveTallyBudget_rejected() {
    Configuration conf = new Configuration(false);
    conf.set(WordCount2.TALLY_BYTES.name(), "0");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> runMapper(List.of("a b"), conf));
    assertTrue(e.getMessage().contains(WordCount2.TALLY_BYTES.name()), e.getMessage());
  }
}
