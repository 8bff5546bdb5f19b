package org.fawnpack.jobs.md5;

import java.io.IOException;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The reducer's filter run map-side: keeps only the pairs whose hash is the target. The thesis
 * ships every (value, hash) pair to the reducers (20 bytes each, 5 GiB for 28 bits); the filter
 * is idempotent (a kept pair passes it again; a dropped pair could never be kept), so running it
 * zero, one or several times before the reducer — as Hadoop may — leaves the result unchanged,
 * and the shuffle shrinks to the matches. {@code --no-combiner} runs the thesis's shuffle as is.
 */
public final class Md5MatchCombiner
    extends Reducer<ByteWritable, ValueDigestWritable, ByteWritable, ValueDigestWritable> {
  private byte[] target;

  @Override
  protected void setup(Context context) {
    target = Md5Config.target(context.getConfiguration());
  }

  @Override
  protected void reduce(ByteWritable key, Iterable<ValueDigestWritable> pairs, Context context)
      throws IOException, InterruptedException {
    for (ValueDigestWritable pair : pairs) {
      if (pair.digestEquals(target)) {
        context.write(key, pair);
      }
    }
  }
}
