package org.fawnpack.kv.hadoop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.security.Credentials;
import org.fawnpack.kv.bulk.BulkAttach;
import org.fawnpack.kv.bulk.BulkDrivers;
import org.fawnpack.kv.store.KeyRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's file committer (algorithm 1) over a bulk load's staging directory, then the
 * promoted arc files attached to the cluster as one load ({@link BulkAttach}) under the job's
 * id, and the directory deleted. An abort deletes the directory: nothing was staged in the
 * cluster yet.
 */
final class AttachCommitter extends StagingCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(AttachCommitter.class);

  AttachCommitter(Path staging, TaskAttemptContext context) throws IOException {
    super(staging, context);
  }

  @Override
  public void commitJob(JobContext context) throws IOException {
    super.commitJob(context); // every committed reduce's file, now in the staging directory
    Credentials credentials = context.getCredentials();
    AttachPlan plan = AttachPlan.read(context.getConfiguration(), credentials);
    FileSystem fs = staging().getFileSystem(context.getConfiguration());
    List<BulkAttach.ArcFile> files = new ArrayList<>();
    long records = 0;
    for (FileStatus meta : fs.listStatus(staging(), p -> p.getName().startsWith(
        FawnKvAttachOutputFormat.FILE_PREFIX) && p.getName().endsWith(
            FawnKvAttachOutputFormat.META_SUFFIX))) {
      String name = meta.getPath().getName();
      Path file = new Path(staging(), name.substring(0, name.length()
          - FawnKvAttachOutputFormat.META_SUFFIX.length()));
      String[] fields;
      try (FSDataInputStream in = fs.open(meta.getPath())) {
        fields = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split(" ");
      }
      long end = Long.parseUnsignedLong(file.getName().substring(
          FawnKvAttachOutputFormat.FILE_PREFIX.length(), file.getName().length() - 4), 16);
      KeyRange range = plan.arcs().stream().filter(r -> r.endInclusive() == end).findFirst()
          .orElseThrow(() -> new IOException(file + " is of no arc of the job's plan"));
      files.add(new BulkAttach.ArcFile(range, Long.parseLong(fields[0]),
          Integer.parseUnsignedInt(fields[1], 16), () -> fs.open(file)));
      records += Long.parseLong(fields[2]);
    }
    String job = "kvload-" + context.getJobID();
    try (KvClusterAccess cluster = KvClusterAccess.open(context.getConfiguration(),
        credentials)) {
      BulkAttach driver = BulkDrivers.of(cluster.zk(), cluster.paths(), cluster.pool(),
          Duration.ofMillis(KvInputKeys.read(KvOutputKeys.ATTACH_TIMEOUT_MS,
              context.getConfiguration())),
          org.fawnpack.kv.config.BackoffKeys.read(context.getConfiguration()::getTrimmed).bulk())
          .answersWithin(cluster.timeouts());
      BulkAttach.Result result = driver.load(job, files);
      LOG.info("bulk load {}: {} records in {} arc files, {} bytes staged on the replicas in"
          + " {} ms, visible {} ms later", job, records, result.arcs(), result.bytesStaged(),
          result.stageMillis(), result.applyMillis());
    }
    deleteStaging(context);
  }
}
