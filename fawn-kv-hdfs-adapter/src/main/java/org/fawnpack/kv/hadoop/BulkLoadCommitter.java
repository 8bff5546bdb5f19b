package org.fawnpack.kv.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's file committer (algorithm 1) over a bulk load's staging directory, which then puts
 * the promoted files into FAWN-KV and deletes the directory. Tasks are committed as files are:
 * an attempt's file is promoted only if the application master lets that attempt commit.
 */
final class BulkLoadCommitter extends StagingCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(BulkLoadCommitter.class);

  BulkLoadCommitter(Path staging, TaskAttemptContext context) throws IOException {
    super(staging, context);
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    super.commitJob(context); // every committed task's file, now in the staging directory
    try (KvClusterAccess cluster = KvClusterAccess.open(context.getConfiguration(),
        context.getCredentials())) {
      StagedFileLoader.Loaded loaded = new StagedFileLoader(cluster, context.getConfiguration())
          .load(staging());
      LOG.info("bulk load of job {}: {} records, {} bytes from {} staged files in {} ms",
          context.getJobID(), loaded.records(), loaded.bytes(), loaded.files(),
          loaded.millis());
    }
    deleteStaging(context);
  }
}
