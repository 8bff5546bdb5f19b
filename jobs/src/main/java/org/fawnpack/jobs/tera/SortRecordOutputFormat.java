package org.fawnpack.jobs.tera;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * Writes records as the sort benchmark stores them: key bytes then value bytes, 100 bytes a
 * record, nothing else. Files get {@value #REPLICATION} replicas when it is set (terasort sets
 * it), else the file system's default.
 */
public final class SortRecordOutputFormat extends FileOutputFormat<SortKey, SortValue> {
  /** Replicas of each output file; 0 or unset = the file system's default. */
  public static final String REPLICATION = TeraSortConfig.OUTPUT_REPLICATION.name();

  @Override
  public RecordWriter<SortKey, SortValue> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Configuration conf = context.getConfiguration();
    Path file = getDefaultWorkFile(context, "");
    FileSystem fs = file.getFileSystem(conf);
    short replication = (short) conf.getInt(REPLICATION, 0);
    FSDataOutputStream out = replication > 0
        ? fs.create(file, false, conf.getInt("io.file.buffer.size", 4096), replication,
            fs.getDefaultBlockSize(file), context)
        : fs.create(file, false);
    return new RecordWriter<>() {
      @Override
      public void write(SortKey key, SortValue value) throws IOException {
        out.write(key.bytes());
        out.write(value.bytes());
      }

      @Override
      public void close(TaskAttemptContext ignored) throws IOException {
        out.close();
      }
    };
  }
}
