package org.fawnpack.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.compress.BZip2Codec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.CombineFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.CombineFileSplit;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/** Files, splits and task contexts for the input-format tests; the naive oracles live here too. */
final class InputTestSupport {

  /** Words mixing ASCII with 2-, 3- and 4-byte UTF-8 characters. */
  private static final String[] SYLLABLES = {
    "a", "lorem", "ipsum", "x", "hadoop", "é", "Straße", "naïve", "日本", "語", "😀", "Ω", "42",
    "-", "tab\there", "fawn"
  };

  private InputTestSupport() {}

  /** A configuration on the local file system, with nothing cluster-specific. */
  static Configuration localConf() {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set("mapreduce.framework.name", "local");
    return conf;
  }

  static Job job(Configuration conf, Path... inputs) throws IOException {
    Job job = Job.getInstance(conf);
    for (Path input : inputs) {
      FileInputFormat.addInputPath(job, input);
    }
    return job;
  }

  static List<CombineFileSplit> splits(CombineFileInputFormat<?, ?> format, Job job)
      throws IOException {
    List<CombineFileSplit> result = new ArrayList<>();
    for (InputSplit split : format.getSplits(job)) {
      result.add((CombineFileSplit) split);
    }
    return result;
  }

  /** A random line of 0 to maxWords words; may be empty. */
  static String randomLine(Random random, int maxWords) {
    int words = random.nextInt(maxWords + 1);
    StringBuilder line = new StringBuilder();
    for (int w = 0; w < words; w++) {
      if (w > 0) {
        line.append(random.nextInt(8) == 0 ? "  " : " ");
      }
      line.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
      if (random.nextBoolean()) {
        line.append(SYLLABLES[random.nextInt(SYLLABLES.length)]);
      }
    }
    return line.toString();
  }

  /**
   * Text of random lines, about {@code approxBytes} long, ending with "\n", "\r\n" or (for the
   * last line, sometimes) nothing.
   */
  static String randomText(Random random, int approxBytes, boolean crlf) {
    StringBuilder text = new StringBuilder();
    int bytes = 0;
    while (bytes < approxBytes) {
      String line = randomLine(random, 12);
      text.append(line);
      bytes += utf8Length(line);
      if (bytes < approxBytes || random.nextBoolean()) {
        String end = crlf && random.nextInt(4) == 0 ? "\r\n" : "\n";
        text.append(end);
        bytes += end.length();
      }
    }
    return text.toString();
  }

  static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  static java.nio.file.Path writeText(java.nio.file.Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.write(file, text.getBytes(StandardCharsets.UTF_8));
  }

  static java.nio.file.Path writeGzip(java.nio.file.Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    return Files.write(file, gzip(text.getBytes(StandardCharsets.UTF_8)));
  }

  static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(data);
    }
    return bytes.toByteArray();
  }

  static java.nio.file.Path writeBzip2(java.nio.file.Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    BZip2Codec codec = new BZip2Codec();
    codec.setConf(new Configuration(false));
    try (OutputStream raw = Files.newOutputStream(file);
        CompressionOutputStream out = codec.createOutputStream(raw)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.finish();
    }
    return file;
  }

  /**
   * The lines of a text as a line reader sees them: ended by "\n", "\r\n" or a lone "\r"; a last
   * line without terminator counts, an empty tail after the last terminator does not.
   */
  static List<String> naiveLines(String text) throws IOException {
    List<String> lines = new ArrayList<>();
    try (var reader = new java.io.BufferedReader(new java.io.StringReader(text))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lines.add(line);
      }
    }
    return lines;
  }

  /** Lines of a file on disk read with java.nio (UTF-8). */
  static List<String> naiveLines(java.nio.file.Path file) throws IOException {
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }

  static Map<String, Integer> multiset(Iterable<String> items) {
    Map<String, Integer> counts = new HashMap<>();
    for (String item : items) {
      counts.merge(item, 1, Integer::sum);
    }
    return counts;
  }

  /** Status reporter whose counters are real MapReduce counters. */
  static final class CountingReporter extends StatusReporter {
    final Counters counters = new Counters();

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
      return 0f;
    }

    @Override
    public void setStatus(String status) {}

    long value(Enum<?> counter) {
      return counters.findCounter(counter).getValue();
    }
  }

  static TaskAttemptContext taskContext(Configuration conf, StatusReporter reporter) {
    TaskAttemptID attempt = new TaskAttemptID("fawn-test", 1, TaskType.MAP, 0, 0);
    return new TaskAttemptContextImpl(conf, attempt, reporter);
  }

  /** One record as read: key copied to a string, the line, and the split it came from. */
  record Line(String key, String value, int split) {}

  /** Reads every record of every split, checking that progress never goes back and ends at 1. */
  static <K> List<Line> readAll(CombineFileInputFormat<K, Text> format, List<CombineFileSplit> splits,
      Configuration conf, CountingReporter reporter) throws IOException, InterruptedException {
    List<Line> lines = new ArrayList<>();
    for (int s = 0; s < splits.size(); s++) {
      TaskAttemptContext context = taskContext(conf, reporter);
      try (RecordReader<K, Text> reader = format.createRecordReader(splits.get(s), context)) {
        reader.initialize(splits.get(s), context);
        float progress = reader.getProgress();
        assertEquals(0f, progress, "progress before the first record");
        while (reader.nextKeyValue()) {
          lines.add(new Line(reader.getCurrentKey().toString(),
              reader.getCurrentValue().toString(), s));
          float now = reader.getProgress();
          assertTrue(now >= progress && now <= 1f, "progress " + progress + " -> " + now);
          progress = now;
        }
        assertEquals(1f, reader.getProgress(), "progress after the last record");
      }
    }
    return lines;
  }

  static List<String> values(List<Line> lines) {
    return lines.stream().map(Line::value).toList();
  }
}
