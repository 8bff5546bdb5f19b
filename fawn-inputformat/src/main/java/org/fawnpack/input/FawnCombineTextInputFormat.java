package org.fawnpack.input;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Text input that packs many small files into one split per container slot.
 *
 * <p>Key: the line's byte offset in its file (as in TextInputFormat); value: the line.
 *
 * <pre>{@code
 * job.setInputFormatClass(FawnCombineTextInputFormat.class);
 * // optional: -Dfawn.input.combine.policy=fixed -Dfawn.input.combine.max-split-bytes=64m
 * }</pre>
 *
 * See {@link FawnInputConfig} for every setting.
 */
public class FawnCombineTextInputFormat extends AbstractFawnCombineInputFormat<LongWritable> {

  @Override
  public RecordReader<LongWritable, Text> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new CombinedLineRecordReader<>(new CombinedLineRecordReader.KeyMaker<LongWritable>() {
      @Override
      public LongWritable newKey() {
        return new LongWritable();
      }

      @Override
      public void set(LongWritable key, Path file, long offset) {
        key.set(offset);
      }
    });
  }
}
