package org.fawnpack.jobs.kv;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.fawnpack.jobs.JobKeys;
import org.fawnpack.kv.hadoop.FawnKvAttachOutputFormat;
import org.fawnpack.kv.hadoop.FawnKvOutputFormat;
import org.fawnpack.kv.hadoop.FawnKvPutOutputFormat;
import org.fawnpack.kv.hadoop.FawnKvSnapshotInputFormat;

/**
 * Loads text files into a FAWN-KV cluster: each line is a key, the separator (a tab unless
 * {@code --separator} or {@code fawn.jobs.kvload.separator} says otherwise; {@code \t} is a
 * tab there) and a value, both
 * stored as their UTF-8 bytes. A map-only job: by default a bulk load
 * ({@link FawnKvOutputFormat}: each map stages its records, the job commit puts the committed
 * maps' files, so a failed attempt or a failed job loads nothing); with {@code --puts} the maps
 * put in batches through the front-ends as they go ({@link FawnKvPutOutputFormat}:
 * at-least-once, no staging); with {@code --attach} one reduce per arc builds its arc's
 * FAWN-DS file and the job commit attaches the files ({@link FawnKvAttachOutputFormat}: every
 * arc visible at once or none, and the files are built by metered tasks); {@code --snapshot DIR}
 * restores an offline snapshot the same way ({@code ./fawn kv restore --from DIR}). Lines with no separator or an empty key are not loaded; they are
 * counted ({@code SKIPPED_LINES}) and the job's line says how many. With {@code --seqfile} the
 * input is SequenceFiles of ({@code BytesWritable} key, {@code BytesWritable} value), as
 * kvexport writes them, loaded as they are.
 */
public class KvLoad extends KvJobTool {
  private static final String PUTS = "--puts";
  private static final String ATTACH = "--attach";
  private static final String SNAPSHOT = "--snapshot";
  private static final String SEQFILE = "--seqfile";
  private static final String SEPARATOR = "--separator";

  /** kvload's own counters. */
  public enum KvLoadCounter {
    /** Lines without the separator, or with an empty key: not loaded. */
    SKIPPED_LINES
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new KvLoad(), args));
  }

  @Override
  public String name() {
    return "kvload";
  }

  @Override
  public String description() {
    return "Loads key<TAB>value lines into a FAWN-KV cluster at job commit (--attach: one"
        + " reduce per arc builds its file, attached to every arc at once; --puts: batched"
        + " puts as the maps go, at-least-once).";
  }

  @Override
  protected String synopsis() {
    return "[--attach | --puts] [--seqfile | --separator S] <in> [<in>...]"
        + " | --snapshot DIR";
  }

  @Override
  protected Job jobFromArguments(String[] args) throws IOException, UsageException {
    boolean puts = false;
    boolean attach = false;
    boolean sequenceFiles = false;
    String separator = null;
    String snapshot = null;
    int at = 0;
    for (; at < args.length && args[at].startsWith("--"); at++) {
      switch (args[at]) {
        case PUTS -> puts = true;
        case ATTACH -> attach = true;
        case SNAPSHOT -> {
          if (at + 1 == args.length || args[at + 1].isBlank()) {
            throw new UsageException(SNAPSHOT + " wants the snapshot's directory");
          }
          snapshot = args[++at];
        }
        case SEQFILE -> sequenceFiles = true;
        case SEPARATOR -> {
          if (at + 1 == args.length || args[at + 1].isEmpty()) {
            throw new UsageException(SEPARATOR + " wants a non-empty string");
          }
          separator = args[++at];
        }
        default -> throw new UsageException("unknown option " + args[at]);
      }
    }
    if (snapshot != null) {
      return restoreJob(snapshot, puts || sequenceFiles || separator != null
          || at < args.length);
    }
    if (puts && attach) {
      throw new UsageException(PUTS + " and " + ATTACH + " are two ways to load: one of them");
    }
    if (sequenceFiles && separator != null) {
      throw new UsageException(SEPARATOR + " is for text lines, not " + SEQFILE);
    }
    requireCluster();
    Job job = newJob((puts ? "batched puts" : attach ? "bulk load by attached files"
        : "bulk load")
        + (sequenceFiles ? " of SequenceFiles" : ""));
    if (separator != null) {
      job.getConfiguration().set(JobKeys.KVLOAD_SEPARATOR.name(), separator);
    }
    JobKeys.KVLOAD_SEPARATOR.read(job.getConfiguration()::get); // a bad value fails here
    String[] inputs = Arrays.copyOfRange(args, at, args.length);
    if (inputs.length == 0) {
      throw new UsageException("missing input path");
    }
    for (String in : inputs) {
      Path input = new Path(in);
      FileSystem fs = input.getFileSystem(getConf());
      FileStatus[] matches = fs.globStatus(input);
      if (matches == null || matches.length == 0) {
        throw new UsageException("input path does not exist: " + fs.makeQualified(input));
      }
      FileInputFormat.addInputPath(job, input);
    }
    if (sequenceFiles) {
      job.setInputFormatClass(SequenceFileInputFormat.class);
      job.setMapperClass(Mapper.class); // identity: (key, value) pairs as they are
    } else {
      job.setInputFormatClass(TextInputFormat.class);
      job.setMapperClass(LineMapper.class);
    }
    job.setNumReduceTasks(0);
    if (puts) {
      FawnKvPutOutputFormat.setUp(job);
    } else if (attach) {
      FawnKvAttachOutputFormat.setUp(job); // one reduce per arc: identity reduces
    } else {
      FawnKvOutputFormat.setUp(job);
    }
    return job;
  }

  /**
   * A restore: the snapshot's entries (read offline, {@link FawnKvSnapshotInputFormat})
   * attached to the cluster as one load, partitioned by its ring (which need not be the
   * snapshot's).
   */
  private Job restoreJob(String snapshot, boolean otherInput) throws IOException,
      UsageException {
    if (otherInput) {
      throw new UsageException(SNAPSHOT + " restores a snapshot by attached files: no other"
          + " input, --puts, --seqfile or --separator with it");
    }
    requireCluster();
    Job job = newJob("restore of snapshot " + snapshot);
    FawnKvSnapshotInputFormat.setUp(job, new Path(snapshot));
    job.setMapperClass(Mapper.class); // identity: the snapshot's (key, value) pairs
    FawnKvAttachOutputFormat.setUp(job);
    return job;
  }

  @Override
  protected void printResult(Job job, boolean ok) throws IOException, InterruptedException {
    super.printResult(job, ok);
    var counters = job.getCounters();
    if (counters != null) {
      long skipped = counters.findCounter(KvLoadCounter.SKIPPED_LINES).getValue();
      if (skipped > 0) {
        out().printf("%s: %d lines skipped (no separator, or an empty key)%n", name(), skipped);
      }
    }
  }

  /** (key, value) of each line, split at the first separator. */
  public static class LineMapper
      extends Mapper<LongWritable, Text, BytesWritable, BytesWritable> {
    private byte[] separator;
    private final BytesWritable key = new BytesWritable();
    private final BytesWritable value = new BytesWritable();

    @Override
    protected void setup(Context context) {
      separator = JobKeys.kvloadSeparator(context.getConfiguration());
    }

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      byte[] bytes = line.getBytes();
      int length = line.getLength();
      int at = KvCount.PrefixMapper.indexOf(bytes, length, separator);
      if (at <= 0) {
        context.getCounter(KvLoadCounter.SKIPPED_LINES).increment(1);
        return;
      }
      key.set(bytes, 0, at);
      value.set(bytes, at + separator.length, length - at - separator.length);
      context.write(key, value);
    }
  }
}
