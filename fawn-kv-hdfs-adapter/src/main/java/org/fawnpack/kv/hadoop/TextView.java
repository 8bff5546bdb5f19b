package org.fawnpack.kv.hadoop;

import java.io.IOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** A reader of {@link BytesWritable} pairs seen as {@link Text}: the same bytes, no decoding. */
final class TextView extends RecordReader<Text, Text> {
  private final RecordReader<BytesWritable, BytesWritable> reader;
  private final Text key = new Text();
  private final Text value = new Text();

  TextView(RecordReader<BytesWritable, BytesWritable> reader) {
    this.reader = reader;
  }

  @Override
  public void initialize(InputSplit split, TaskAttemptContext context)
      throws IOException, InterruptedException {
    reader.initialize(split, context);
  }

  @Override
  public boolean nextKeyValue() throws IOException, InterruptedException {
    if (!reader.nextKeyValue()) {
      return false;
    }
    BytesWritable k = reader.getCurrentKey();
    BytesWritable v = reader.getCurrentValue();
    key.set(k.getBytes(), 0, k.getLength());
    value.set(v.getBytes(), 0, v.getLength());
    return true;
  }

  @Override
  public Text getCurrentKey() {
    return key;
  }

  @Override
  public Text getCurrentValue() {
    return value;
  }

  @Override
  public float getProgress() throws IOException, InterruptedException {
    return reader.getProgress();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
