package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * {@link FawnKvSnapshotInputFormat} with keys and values as {@link Text} (the same bytes, read
 * as UTF-8 by whoever calls {@code toString()}).
 */
public class FawnKvSnapshotTextInputFormat extends InputFormat<Text, Text> {
  private final FawnKvSnapshotInputFormat bytes = new FawnKvSnapshotInputFormat();

  /** Makes {@code job} read the snapshot in {@code dir} as text. */
  public static void setUp(Job job, Path dir) throws IOException {
    FawnKvSnapshotInputFormat.setUp(job, dir);
    job.setInputFormatClass(FawnKvSnapshotTextInputFormat.class);
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    return bytes.getSplits(context);
  }

  @Override
  public RecordReader<Text, Text> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new TextView(new SnapshotRecordReader());
  }
}
