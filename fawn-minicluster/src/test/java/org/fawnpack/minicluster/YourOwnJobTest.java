package org.fawnpack.minicluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The example of docs/minicluster.md, kept compiling and passing: a user's own job (here: the
 * length of each line's first word, counted) tested on the embedded cluster with the JUnit 5
 * extension, checked against the same count done in plain Java.
 */
class YourOwnJobTest {

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(b -> b.nodeManagers(2).nodeVcores(2));

  /** The user's mapper: emits (length of the first word, 1) for each non-blank line. */
  public static class FirstWordLengthMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      String[] words = line.toString().trim().split("\\s+");
      if (!words[0].isEmpty()) {
        context.write(new Text(Integer.toString(words[0].length())), ONE);
      }
    }
  }

  @Test
  void ownJob_onTheEmbeddedCluster_countsWhatPlainJavaCounts() throws Exception {
    String[] lines = {"wimpy nodes", "brawny master", "", "  edison board", "pi 4", "joules"};
    FileSystem fs = CLUSTER.cluster().fileSystem();
    Path input = new Path("/example/in/lines.txt");
    try (OutputStream out = fs.create(input)) {
      out.write(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
    }

    Job job = Job.getInstance(CLUSTER.cluster().clientConf(), "first-word-length");
    job.setJarByClass(YourOwnJobTest.class);
    job.setMapperClass(FirstWordLengthMapper.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, input);
    Path output = new Path("/example/out");
    FileOutputFormat.setOutputPath(job, output);
    assertTrue(job.waitForCompletion(false), "the job failed: " + job.getStatus());

    Map<String, Long> expected = new HashMap<>();
    for (String line : lines) {
      if (!line.isBlank()) {
        expected.merge(Integer.toString(line.trim().split("\\s+")[0].length()), 1L, Long::sum);
      }
    }
    assertEquals(expected, JobOutputs.read(fs, output));
  }
}
