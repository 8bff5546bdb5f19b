package org.fawnpack.jobs.kv;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.JobKeys;
import org.fawnpack.kv.hadoop.FawnKvInputFormat;
import org.fawnpack.kv.hadoop.FawnKvSnapshotInputFormat;

/**
 * Records and bytes (keys and values) per key prefix of a FAWN-KV cluster: a key's prefix is
 * what comes before the first delimiter ({@code /} unless {@code --delimiter} or
 * {@code fawn.jobs.kvcount.delimiter} says otherwise);
 * a key without one counts under the empty prefix. Output lines: {@code prefix TAB records TAB
 * bytes}. The cluster: {@code -Dfawn.kv.zookeeper.quorum=...} and the secret in
 * {@code fawn.kv.secret-file}; {@code -Dfawn.kv.input.*} shape the splits. With
 * {@code --snapshot DIR} it counts an offline snapshot instead, with no cluster named.
 */
public class KvCount extends KvJobTool {

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new KvCount(), args));
  }

  @Override
  public String name() {
    return "kvcount";
  }

  @Override
  public String description() {
    return "Counts the records and bytes of a FAWN-KV cluster (or of a snapshot of one) per key"
        + " prefix.";
  }

  @Override
  protected String synopsis() {
    return "[--snapshot DIR] [--delimiter D] <out>";
  }

  @Override
  protected Job jobFromArguments(String[] args) throws IOException, UsageException {
    String[][] options = new String[1][];
    String snapshot = snapshotOption(args, options);
    String[][] rest = new String[1][];
    Job job = jobFor(options[0], "--delimiter", JobKeys.KVCOUNT_DELIMITER, rest,
        snapshot == null ? "" : "of snapshot " + snapshot, snapshot == null);
    Path output = newOutput(rest[0]);
    if (snapshot == null) {
      FawnKvInputFormat.setUp(job);
    } else {
      FawnKvSnapshotInputFormat.setUp(job, new Path(snapshot));
    }
    job.setMapperClass(PrefixMapper.class);
    job.setCombinerClass(SumReducer.class);
    job.setReducerClass(SumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(RecordsAndBytes.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /** (prefix, 1 record and its bytes) per entry. */
  public static class PrefixMapper
      extends Mapper<BytesWritable, BytesWritable, Text, RecordsAndBytes> {
    private byte[] delimiter;
    private final Text prefix = new Text();
    private final RecordsAndBytes one = new RecordsAndBytes();

    @Override
    protected void setup(Context context) {
      delimiter = JobKeys.KVCOUNT_DELIMITER.read(context.getConfiguration()::get)
          .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void map(BytesWritable key, BytesWritable value, Context context)
        throws IOException, InterruptedException {
      prefix.set(key.getBytes(), 0, prefixLength(key.getBytes(), key.getLength(), delimiter));
      one.set(1, key.getLength() + (long) value.getLength());
      context.write(prefix, one);
    }

    /** Bytes before the first {@code delimiter} in {@code key[0, length)}; 0 when none. */
    static int prefixLength(byte[] key, int length, byte[] delimiter) {
      return Math.max(0, indexOf(key, length, delimiter));
    }

    /** Where {@code delimiter} first starts in {@code bytes[0, length)}, or -1. */
    static int indexOf(byte[] bytes, int length, byte[] delimiter) {
      for (int i = 0; i + delimiter.length <= length; i++) {
        if (java.util.Arrays.equals(bytes, i, i + delimiter.length, delimiter, 0,
            delimiter.length)) {
          return i;
        }
      }
      return -1;
    }
  }

  /** Sums records and bytes per prefix (also the combiner). */
  public static class SumReducer extends Reducer<Text, RecordsAndBytes, Text, RecordsAndBytes> {
    private final RecordsAndBytes sum = new RecordsAndBytes();

    @Override
    protected void reduce(Text prefix, Iterable<RecordsAndBytes> counts, Context context)
        throws IOException, InterruptedException {
      long records = 0;
      long bytes = 0;
      for (RecordsAndBytes c : counts) {
        records += c.records();
        bytes += c.bytes();
      }
      sum.set(records, bytes);
      context.write(prefix, sum);
    }
  }
}
