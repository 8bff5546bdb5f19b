package org.fawnpack.jobs.md5;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;

/** md5gen's map: writes every value of its range, in order, through the record output format. */
public final class ValueGenMapper extends Mapper<LongWritable, LongWritable, LongWritable,
    NullWritable> {
  /** Values between progress reports. */
  private static final long CHUNK = 1L << 20;

  @Override
  protected void map(LongWritable first, LongWritable count, Context context)
      throws IOException, InterruptedException {
    LongWritable value = new LongWritable();
    long end = first.get() + count.get();
    for (long v = first.get(); v < end; v++) {
      value.set(v);
      context.write(value, NullWritable.get());
      if ((v & (CHUNK - 1)) == 0) {
        context.progress();
      }
    }
  }
}
