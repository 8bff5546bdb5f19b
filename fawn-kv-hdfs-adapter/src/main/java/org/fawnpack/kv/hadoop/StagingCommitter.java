package org.fawnpack.kv.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;

/**
 * Hadoop's file committer (algorithm 1) over a load's staging directory, which is deleted
 * after the job commit or abort. The commit itself is not repeatable: a load is never run
 * twice by Hadoop's retries.
 */
abstract class StagingCommitter extends FileOutputCommitter {
  private final Path staging;

  StagingCommitter(Path staging, TaskAttemptContext context) throws IOException {
    super(staging, context);
    this.staging = staging;
  }

  /** The staging directory: one promoted file (or pair) per committed task after commit. */
  Path staging() {
    return staging;
  }

  @Override
  public boolean isCommitJobRepeatable(JobContext context) {
    return false;
  }

  @Override
  public void abortJob(JobContext context, JobStatus.State state) throws IOException {
    super.abortJob(context, state);
    deleteStaging(context);
  }

  void deleteStaging(JobContext context) throws IOException {
    FileSystem fs = staging.getFileSystem(context.getConfiguration());
    if (fs.exists(staging) && !fs.delete(staging, true)) {
      throw new IOException("could not delete the bulk load's staging directory " + staging);
    }
  }
}
