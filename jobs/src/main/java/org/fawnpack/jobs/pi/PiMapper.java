package org.fawnpack.jobs.pi;

import java.io.IOException;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;

/**
 * Counts its split's points inside the circle into counters: the job needs no shuffle, no reduce
 * and no output files, and counters are summed exactly over successful attempts.
 */
public final class PiMapper extends Mapper<LongWritable, LongWritable, NullWritable, NullWritable> {
  /** Points between progress reports: a few hundred milliseconds of work. */
  static final long CHUNK = 1L << 24;

  @Override
  protected void map(LongWritable first, LongWritable count, Context context)
      throws IOException, InterruptedException {
    long done = 0;
    long inside = 0;
    while (done < count.get()) {
      long chunk = Math.min(CHUNK, count.get() - done);
      inside += HaltonCircle.countInside(first.get() + done, chunk);
      done += chunk;
      context.progress(); // long maps must not look hung to the AM
    }
    context.getCounter(PiCounter.INSIDE).increment(inside);
    context.getCounter(PiCounter.SAMPLES).increment(done);
  }
}
