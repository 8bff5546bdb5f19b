package org.fawnpack.jobs.kv;

import java.io.IOException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.kv.hadoop.FawnKvInputFormat;
import org.fawnpack.kv.hadoop.FawnKvSnapshotInputFormat;
import org.fawnpack.kv.hadoop.FawnKvSnapshotTextInputFormat;
import org.fawnpack.kv.hadoop.FawnKvTextInputFormat;

/**
 * Copies every entry of a FAWN-KV cluster into files: a SequenceFile of
 * ({@link BytesWritable} key, {@link BytesWritable} value) per map, or with {@code --text}
 * lines of {@code key TAB value}. A map-only job over {@link FawnKvInputFormat}; with
 * {@code -Dfawn.kv.input.consistent=true} the copy is of one instant (the job's submission).
 * With {@code --snapshot DIR} it copies an offline snapshot ({@link FawnKvSnapshotInputFormat})
 * and names no cluster.
 */
public class KvExport extends KvJobTool {

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new KvExport(), args));
  }

  @Override
  public String name() {
    return "kvexport";
  }

  @Override
  public String description() {
    return "Copies a FAWN-KV cluster's (or a snapshot's) entries into SequenceFiles (or"
        + " key<TAB>value text).";
  }

  @Override
  protected String synopsis() {
    return "[--snapshot DIR] [--text] <out>";
  }

  @Override
  protected Job jobFromArguments(String[] args) throws IOException, UsageException {
    String[][] rest = new String[1][];
    String snapshot = snapshotOption(args, rest);
    String[] options = rest[0];
    boolean text = options.length > 0 && options[0].equals("--text");
    Path output = newOutput(java.util.Arrays.copyOfRange(options, text ? 1 : 0,
        options.length));
    if (snapshot == null) {
      requireCluster();
    }
    Job job = newJob((text ? "(text)" : "") + (snapshot == null ? "" : " of snapshot "
        + snapshot));
    job.setNumReduceTasks(0);
    job.setMapperClass(Mapper.class); // identity: entries go out as they come in
    if (text && snapshot != null) {
      FawnKvSnapshotTextInputFormat.setUp(job, new Path(snapshot));
    } else if (snapshot != null) {
      FawnKvSnapshotInputFormat.setUp(job, new Path(snapshot));
    }
    if (text) {
      if (snapshot == null) {
        FawnKvTextInputFormat.setUp(job);
      }
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(Text.class);
      job.setOutputFormatClass(TextOutputFormat.class);
    } else {
      if (snapshot == null) {
        FawnKvInputFormat.setUp(job);
      }
      job.setOutputKeyClass(BytesWritable.class);
      job.setOutputValueClass(BytesWritable.class);
      job.setOutputFormatClass(SequenceFileOutputFormat.class);
    }
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }
}
