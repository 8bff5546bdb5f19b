package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** An input format of {@link BytesWritable} pairs seen as {@link Text} ({@link TextView}). */
abstract class TextViewFormat extends InputFormat<Text, Text> {
  private final InputFormat<BytesWritable, BytesWritable> bytes;

  TextViewFormat(InputFormat<BytesWritable, BytesWritable> bytes) {
    this.bytes = bytes;
  }

  @Override
  public List<InputSplit> getSplits(JobContext context)
      throws IOException, InterruptedException {
    return bytes.getSplits(context);
  }

  @Override
  public RecordReader<Text, Text> createRecordReader(InputSplit split,
      TaskAttemptContext context) throws IOException, InterruptedException {
    return new TextView(bytes.createRecordReader(split, context));
  }
}
