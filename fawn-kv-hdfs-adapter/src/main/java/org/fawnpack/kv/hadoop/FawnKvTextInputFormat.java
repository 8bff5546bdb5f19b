package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * {@link FawnKvInputFormat} with keys and values as {@link Text} (their bytes as they are,
 * read as UTF-8 by whoever calls {@code toString()}).
 */
public class FawnKvTextInputFormat extends InputFormat<Text, Text> {
  private final FawnKvInputFormat bytes = new FawnKvInputFormat();

  /** Makes {@code job} read FAWN-KV as text, with the cluster secret in its credentials. */
  public static void setUp(Job job) throws IOException {
    FawnKvInputFormat.setUp(job);
    job.setInputFormatClass(FawnKvTextInputFormat.class);
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    return bytes.getSplits(context);
  }

  @Override
  public RecordReader<Text, Text> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new TextView(new FawnKvRecordReader());
  }
}
