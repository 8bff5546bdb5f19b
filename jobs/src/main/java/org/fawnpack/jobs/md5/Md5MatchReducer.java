package org.fawnpack.jobs.md5;

import java.io.IOException;
import java.util.Locale;
import org.apache.hadoop.io.ByteWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Reducer;

/**
 * The thesis's Reduce(): keeps the (value, MD5(value)) pairs whose hash equals the target, so the
 * output is the target's preimages, one line each: {@code value <TAB> 0xHEX <TAB> md5}.
 */
public final class Md5MatchReducer extends Reducer<ByteWritable, ValueDigestWritable, LongWritable,
    Text> {
  private final LongWritable value = new LongWritable();
  private final Text line = new Text();
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
        value.set(pair.value());
        line.set(String.format(Locale.ROOT, "0x%08x\t%s", pair.value(), pair.digestHex()));
        context.write(value, line);
        context.getCounter(Md5Counter.MATCHES).increment(1);
      }
    }
  }
}
