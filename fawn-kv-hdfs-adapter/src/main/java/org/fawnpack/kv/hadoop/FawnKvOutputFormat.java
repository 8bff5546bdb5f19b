package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.fawnpack.kv.config.KvKeys;
import org.fawnpack.kv.wire.ProtocolLimits;

/**
 * A job's output loaded into FAWN-KV at job commit. Each task attempt writes its records to a
 * SequenceFile in its own staging directory on the job's file system; Hadoop's file committer
 * (algorithm 1) promotes exactly one attempt's file per task, and the job commit puts the
 * promoted files into the cluster ({@link StagedFileLoader}), where the chains' heads number
 * them. So a failed or killed attempt leaves nothing visible, a retried task is loaded once,
 * and a job that fails or is killed before its commit loads nothing. Records become visible
 * during the commit, file by file, not all at one instant; a commit that fails part-way (the
 * cluster refused a batch) fails the job with what it had put left in place.
 */
public class FawnKvOutputFormat extends FileOutputFormat<BytesWritable, BytesWritable> {
  /** Staged files' names start with this (the committer loads only these). */
  static final String STAGED_PREFIX = "part-";

  /**
   * Makes {@code job} load its output into FAWN-KV at commit: its staging directory is made
   * under {@code fawn.kv.output.staging-dir}, and the secret goes into its credentials.
   */
  public static void setUp(Job job) throws IOException {
    Configuration conf = job.getConfiguration();
    job.setOutputFormatClass(FawnKvOutputFormat.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    // Algorithm 1 promotes a task's output only at job commit, which is what makes the load
    // all-or-nothing per task; no _SUCCESS marker, since the directory is gone after commit.
    conf.setInt(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION, 1);
    conf.setBoolean(FileOutputCommitter.SUCCESSFUL_JOB_OUTPUT_DIR_MARKER, false);
    FileOutputFormat.setOutputPath(job, new Path(stagingRoot(conf),
        "load-" + UUID.randomUUID()));
    KvClusterAccess.addSecret(conf, job.getCredentials());
  }

  /** The directory the jobs' staging directories go in. */
  static Path stagingRoot(Configuration conf) throws IOException {
    String dir = KvInputKeys.read(KvOutputKeys.STAGING_DIR, conf);
    FileSystem fs = FileSystem.get(conf);
    return dir == null ? new Path(fs.getHomeDirectory(), ".fawn-kv-staging")
        : fs.makeQualified(new Path(dir));
  }

  @Override
  public RecordWriter<BytesWritable, BytesWritable> getRecordWriter(TaskAttemptContext context)
      throws IOException {
    Path file = getDefaultWorkFile(context, ".seq");
    SequenceFile.Writer writer = SequenceFile.createWriter(context.getConfiguration(),
        SequenceFile.Writer.file(file), SequenceFile.Writer.keyClass(BytesWritable.class),
        SequenceFile.Writer.valueClass(BytesWritable.class));
    org.apache.hadoop.mapreduce.Counter records =
        context.getCounter(FawnKvOutputCounter.RECORDS_STAGED);
    org.apache.hadoop.mapreduce.Counter bytes =
        context.getCounter(FawnKvOutputCounter.BYTES_STAGED);
    return new RecordWriter<>() {
      @Override
      public void write(BytesWritable key, BytesWritable value) throws IOException {
        // Refused here, failing the task, not at commit with part of the load put.
        String problem = key.getLength() == 0 ? "the key is empty"
            : key.getLength() > ProtocolLimits.MAX_KEY_BYTES ? "the key has "
                + key.getLength() + " bytes, more than " + ProtocolLimits.MAX_KEY_BYTES : null;
        if (problem == null && value.getLength() > ProtocolLimits.MAX_VALUE_BYTES) {
          problem = "the value has " + value.getLength() + " bytes, more than "
              + ProtocolLimits.MAX_VALUE_BYTES;
        }
        if (problem != null) {
          throw new IOException("record " + (records.getValue() + 1) + " of "
              + context.getTaskAttemptID() + " cannot be stored in FAWN-KV: " + problem);
        }
        writer.append(key, value);
        records.increment(1);
        bytes.increment(key.getLength() + (long) value.getLength());
      }

      @Override
      public void close(TaskAttemptContext task) throws IOException {
        writer.close();
      }
    };
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    if (conf.get(KvKeys.ZOOKEEPER_QUORUM.name()) == null) {
      throw new IOException("FAWN-KV output needs " + KvKeys.ZOOKEEPER_QUORUM.name());
    }
    if (getOutputPath(context) == null) {
      throw new IOException("the job has no staging directory: set it up with"
          + " FawnKvOutputFormat.setUp(job)");
    }
    int version = conf.getInt(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION, 1);
    if (version != 1) {
      throw new IOException(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION + "="
          + version + ": a FAWN-KV bulk load needs algorithm 1 (task output promoted only at"
          + " job commit)");
    }
    KvClusterAccess.addSecret(conf, context.getCredentials());
    super.checkOutputSpecs(context);
  }

  @Override
  public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context)
      throws IOException {
    return new BulkLoadCommitter(getOutputPath(context), context);
  }
}
