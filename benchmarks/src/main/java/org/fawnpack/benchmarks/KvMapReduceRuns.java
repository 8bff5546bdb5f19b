package org.fawnpack.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.energy.EnergyMetering;
import org.fawnpack.energy.JobEnergySummary;
import org.fawnpack.jobs.JobTool;
import org.fawnpack.jobs.kv.KvCount;
import org.fawnpack.jobs.kv.RecordsAndBytes;
import org.fawnpack.minicluster.JobOutputs;

/**
 * What {@link KvMapReducePart} runs: a whole input format read split after split in this JVM as
 * maps read them, and jobs on the embedded cluster with their wall time and joules.
 */
final class KvMapReduceRuns {
  /** A job that ran: its energy summary and its output, for checking one against another. */
  record JobRun(String what, JobEnergySummary energy, Map<String, Long> output) {}

  private KvMapReduceRuns() {}

  /** Reads every split of {@code job}'s input with {@code format}, one after another. */
  static KvScanPart.Read readSplits(InputFormat<BytesWritable, BytesWritable> format, Job job)
      throws Exception {
    long start = System.nanoTime();
    List<InputSplit> splits = format.getSplits(job);
    long setup = System.nanoTime() - start; // planning and each reader's opening, apart
    long entries = 0;
    long bytes = 0;
    for (InputSplit split : splits) {
      TaskAttemptContext task = new TaskAttemptContextImpl(job.getConfiguration(),
          new TaskAttemptID());
      long opening = System.nanoTime();
      try (RecordReader<BytesWritable, BytesWritable> reader =
          format.createRecordReader(split, task)) {
        reader.initialize(split, task);
        setup += System.nanoTime() - opening;
        while (reader.nextKeyValue()) {
          entries++;
          bytes += reader.getCurrentKey().getLength() + reader.getCurrentValue().getLength();
        }
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(java.util.Locale.ROOT, "%s: %d splits read in %.2f s, %.2f s of it in"
        + " getSplits and the readers' initialize%n", format.getClass().getSimpleName(),
        splits.size(), seconds, setup / 1e9);
    return new KvScanPart.Read(entries, bytes, seconds);
  }

  /** Runs one of fawn-jobs' tools and reads its text output. */
  static JobRun tool(String what, JobTool tool, Configuration conf, FileSystem fs, Path output,
      String... args) throws Exception {
    if (ToolRunner.run(conf, tool, args) != 0) {
      throw new IllegalStateException(what + " failed");
    }
    return new JobRun(what, JobEnergySummary.of(tool.lastJob().getCounters(),
        tool.lastWallMillis()), output == null ? Map.of() : JobOutputs.read(fs, output));
  }

  /** kvcount's mapper and reducers over SequenceFiles of (BytesWritable, BytesWritable). */
  static JobRun countSequenceFiles(Configuration conf, FileSystem fs, Path input, Path output)
      throws Exception {
    Job job = Job.getInstance(conf, "kvcount of SequenceFiles");
    job.setInputFormatClass(SequenceFileInputFormat.class);
    FileInputFormat.addInputPath(job, input);
    job.setMapperClass(KvCount.PrefixMapper.class);
    job.setCombinerClass(KvCount.SumReducer.class);
    job.setReducerClass(KvCount.SumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(RecordsAndBytes.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    EnergyMetering.enable(job); // as the pack's own jobs are
    long start = System.nanoTime();
    if (!job.waitForCompletion(false)) {
      throw new IllegalStateException("kvcount of SequenceFiles failed");
    }
    return new JobRun("kvcount, SequenceFiles", JobEnergySummary.of(job.getCounters(),
        (System.nanoTime() - start) / 1_000_000), JobOutputs.read(fs, output));
  }

  /** {@code lines} lines of {@code prefix<i> TAB value} in two files under {@code dir}. */
  static void writeLines(FileSystem fs, Path dir, String prefix, int lines, int valueBytes)
      throws IOException {
    String value = "v".repeat(valueBytes);
    for (int file = 0; file < 2; file++) {
      try (FSDataOutputStream out = fs.create(new Path(dir, "part" + file))) {
        StringBuilder chunk = new StringBuilder();
        for (int i = file; i < lines; i += 2) {
          chunk.append(prefix).append(i).append('\t').append(value).append('\n');
          if (chunk.length() > 1 << 20) {
            out.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
            chunk.setLength(0);
          }
        }
        out.write(chunk.toString().getBytes(StandardCharsets.UTF_8));
      }
    }
  }
}
