package org.fawnpack.jobs.tera;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;

/** Writes the record of each row of its range and counts rows and the CRC32 sum. */
public final class TeraGenMapper extends Mapper<LongWritable, NullWritable, SortKey, SortValue> {
  private final RecordGenerator generator = new RecordGenerator();
  private final byte[] record = new byte[SortRecord.BYTES];
  private final SortKey key = new SortKey();
  private final SortValue value = new SortValue();
  private long rows;

  @Override
  protected void map(LongWritable row, NullWritable ignored, Context context)
      throws IOException, InterruptedException {
    if (row.get() != generator.nextRow()) {
      generator.seek(row.get());
    }
    generator.next(record, 0);
    key.set(record, 0);
    value.set(record, SortRecord.KEY_BYTES);
    context.write(key, value);
    rows++;
  }

  @Override
  protected void cleanup(Context context) {
    context.getCounter(TeraCounter.ROWS_GENERATED).increment(rows);
    context.getCounter(TeraCounter.CHECKSUM).increment(generator.checksum().low());
  }
}
