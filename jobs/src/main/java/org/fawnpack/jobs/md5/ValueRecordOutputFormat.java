package org.fawnpack.jobs.md5;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/** Writes each key as one 4-byte big-endian record (see {@link ValueRecords}); values ignored. */
public final class ValueRecordOutputFormat extends FileOutputFormat<LongWritable, NullWritable> {

  @Override
  public RecordWriter<LongWritable, NullWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Path file = getDefaultWorkFile(context, "");
    FSDataOutputStream out = file.getFileSystem(context.getConfiguration()).create(file, false);
    // DataOutputStream writes an int byte by byte: buffer, so HDFS sees 64 KiB writes.
    return new Writer(new DataOutputStream(new BufferedOutputStream(out, 64 * 1024)));
  }

  private static final class Writer extends RecordWriter<LongWritable, NullWritable> {
    private final DataOutputStream out;

    Writer(DataOutputStream out) {
      this.out = out;
    }

    @Override
    public void write(LongWritable value, NullWritable ignored) throws IOException {
      out.writeInt((int) value.get()); // big-endian, the low 32 bits
    }

    @Override
    public void close(TaskAttemptContext context) throws IOException {
      out.close();
    }
  }
}
