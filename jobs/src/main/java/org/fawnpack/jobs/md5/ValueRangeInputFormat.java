package org.fawnpack.jobs.md5;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.fawnpack.jobs.RangeRecordReader;
import org.fawnpack.jobs.RangeSplit;

/**
 * md5gen's input: no files, the value space 0 .. 2^bits - 1 cut into one even range per map.
 * Each split yields one record: (first value, count).
 */
public final class ValueRangeInputFormat extends InputFormat<LongWritable, LongWritable> {

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    long values = 1L << Md5Config.bits(conf);
    return new ArrayList<>(RangeSplit.cut("values", 0, values, Md5Config.maps(conf, values),
        ValueRecords.RECORD_BYTES));
  }

  @Override
  public RecordReader<LongWritable, LongWritable> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new RangeRecordReader();
  }
}
