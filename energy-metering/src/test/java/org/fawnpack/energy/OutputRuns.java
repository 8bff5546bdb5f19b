package org.fawnpack.energy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;

/** One task's output, written and committed the way a job does it, and read back as bytes. */
final class OutputRuns {
  /** The records every run writes. */
  static final String[][] RECORDS = {{"alpha", "1"}, {"beta", "22"}, {"γάμμα", "333"},
      {"", "empty key"}, {"tab\tinside", "x"}};
  /** What TextOutputFormat makes of them: key TAB value LF, UTF-8. */
  static final String EXPECTED_TEXT =
      "alpha\t1\nbeta\t22\nγάμμα\t333\n\tempty key\ntab\tinside\tx\n";

  @FunctionalInterface
  interface CommitterFor {
    OutputCommitter get(TaskAttemptContext task) throws IOException, InterruptedException;
  }

  @FunctionalInterface
  interface WriterFor {
    RecordWriter<Text, Text> get(TaskAttemptContext task) throws IOException, InterruptedException;
  }

  private OutputRuns() {
  }

  /** A job configuration writing to {@code output} on the local file system. */
  static Configuration conf(Path output) {
    Configuration conf = new Configuration();
    conf.set("fs.defaultFS", "file:///");
    conf.set(FileOutputFormat.OUTDIR, output.toUri().toString());
    return conf;
  }

  /**
   * setupJob, setupTask, write, needsTaskCommit (commitTask if it says so), commitJob; returns
   * what needsTaskCommit answered.
   */
  static boolean run(TaskAttemptContext task, WriterFor writer, CommitterFor committerFor)
      throws IOException, InterruptedException {
    JobContext job = new JobContextImpl(task.getConfiguration(), task.getJobID());
    OutputCommitter committer = committerFor.get(task);
    committer.setupJob(job);
    committer.setupTask(task);
    RecordWriter<Text, Text> out = writer.get(task);
    for (String[] record : RECORDS) {
      out.write(new Text(record[0]), new Text(record[1]));
    }
    out.close(task);
    boolean needed = committer.needsTaskCommit(task);
    if (needed) {
      committer.commitTask(task);
    }
    committer.commitJob(job);
    return needed;
  }

  /** Every file under {@code dir} (relative name → bytes), hidden checksum files included. */
  static SortedMap<String, byte[]> files(Path dir) {
    SortedMap<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.filter(Files::isRegularFile).forEach(p -> {
        try {
          files.put(dir.relativize(p).toString(), Files.readAllBytes(p));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }
}
